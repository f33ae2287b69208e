/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.triage.sample.tour;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntSupplier;

import dev.triage.CallOutcome;
import dev.triage.Refusal;
import dev.triage.TransportFailure;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.CallRecord;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.Pause;
import dev.triage.overload.RetryBudget;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RetryAfterMode;
import dev.triage.policy.Rule;
import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.chaos.Gateway;
import dev.triage.sample.clients.BulkClient;
import dev.triage.sample.clients.CatalogClient;
import dev.triage.sample.clients.InventoryClient;
import dev.triage.sample.clients.Item;
import dev.triage.sample.clients.ItemCache;
import dev.triage.sample.clients.LimitedClient;
import dev.triage.sample.clients.DeadLetters;
import dev.triage.sample.clients.LlmClient;
import dev.triage.sample.clients.SmsClient;
import dev.triage.sample.clients.StormClient;
import dev.triage.sample.clients.WarehouseApi;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;

/**
 * The seeds' argument, played live: every scenario is a real call through a real Feign client, its row is
 * filled from the servers' request counters and Triage's own report, and each row is checked against what
 * the client's resolved policy table says should have happened.
 */
public class Tour {

	private static final String WAREHOUSE = "warehouse";

	/** The scenario names of the HTTP service client's rows start with this. */
	public static final String HTTP = "@HttpExchange ";

	private final CatalogClient catalog;

	private final InventoryClient inventory;

	private final LlmClient llm;

	private final ItemCache cache;

	private final ChaosUpstream upstream;

	private final Gateway gateway;

	private final ManagedClients clients;

	private final CircuitBreakerRegistry breakers;

	private final LastCall lastCall;

	private final Duration inventoryOpenWait;

	private final OverloadClients overload;

	private final RateLimiterRegistry limiters;

	private final io.github.resilience4j.bulkhead.BulkheadRegistry bulkheads;

	/**
	 * The clients of the overload scenarios.
	 *
	 * @param storm answered 503 to everything
	 * @param bulk answered 429 to everything
	 * @param limited behind a rate limiter
	 */
	public record OverloadClients(StormClient storm, BulkClient bulk, LimitedClient limited) {
	}

	/**
	 * What the channel and poison scenarios use.
	 *
	 * @param sms the client with a backup channel
	 * @param backup the backup provider's server
	 * @param deadLetters where poison requests are kept
	 */
	public record Failover(SmsClient sms, ChaosUpstream backup, DeadLetters deadLetters) {
	}

	private final Failover failover;

	private final WarehouseApi warehouse;

	private final FleetScene fleet;

	private final ReloadScene reload;

	public Tour(CatalogClient catalog, InventoryClient inventory, LlmClient llm, ItemCache cache,
			ChaosUpstream upstream, Gateway gateway, ManagedClients clients, CircuitBreakerRegistry breakers,
			LastCall lastCall, OverloadClients overload, RateLimiterRegistry limiters, Failover failover,
			WarehouseApi warehouse, io.github.resilience4j.bulkhead.BulkheadRegistry bulkheads, FleetScene fleet,
			ReloadScene reload) {
		this.fleet = fleet;
		this.reload = reload;
		this.bulkheads = bulkheads;
		this.warehouse = warehouse;
		this.failover = failover;
		this.overload = overload;
		this.limiters = limiters;
		this.catalog = catalog;
		this.inventory = inventory;
		this.llm = llm;
		this.cache = cache;
		this.upstream = upstream;
		this.gateway = gateway;
		this.clients = clients;
		this.breakers = breakers;
		this.lastCall = lastCall;
		this.inventoryOpenWait = Duration.ofMillis(
				breakers.circuitBreaker("inventory").getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
	}

	/**
	 * Play every scenario, in order.
	 * @return one row per scenario
	 */
	public List<Row> play() {
		List<Row> rows = new ArrayList<>();
		rows.add(call("200 OK", "answers 200", "catalog", this.upstream::requests, this.catalog::ok,
				(o) -> expectSuccess(o, 1)));
		rows.add(call("400 Bad Request", "answers 400", "catalog", this.upstream::requests, () -> this.catalog.status(400),
				(o) -> expectFailure(o, policy("catalog").forStatus(400, null), true)));
		rows.add(call("429 + Retry-After: 1", "quota used up: 429, then 200", "catalog", this.upstream::requests, () -> {
			this.upstream.exhaustQuota("tour");
			return this.catalog.quota("tour");
		}, (o) -> expectRateLimitWaited(o, policy("catalog").forStatus(429, "rate_limit_error"))));
		rows.add(call("flapping 503", "503 twice, then 200", "catalog", this.upstream::requests, () -> {
			this.upstream.flap("tour", 2, 503);
			return this.catalog.flap("tour");
		}, (o) -> expectRecovery(o, policy("catalog").forStatus(503, "flapping"), 2)));
		rows.add(call("/slow via gateway", "gateway gives up: 599", "inventory", this.gateway::requests, this.inventory::slow,
				(o) -> expectFailure(o, policy("inventory").forStatus(599, "proxy_timeout"), true)));
		rows.add(call("/hang via gateway", "never answers: 599", "inventory", this.gateway::requests, this.inventory::hang,
				(o) -> expectFailure(o, policy("inventory").forStatus(599, "proxy_timeout"), true)));
		rows.add(call("POST + read timeout", "answers too late", "catalog", this.upstream::requests,
				() -> this.catalog.placeOrder("{\"sku\":\"tour\",\"qty\":1}"),
				(o) -> expectFailure(o, policy("catalog").forTransport(TransportFailure.READ_TIMEOUT), false)));
		rows.add(call("498 capacity", "498 + Retry-After: 1", "llm", this.upstream::requests,
				() -> this.llm.complete("capacity", "hi", "tour-498"),
				(o) -> expectFailure(o, policy("llm").forStatus(498, "capacity_exceeded"), true)));
		rows.add(call("499 cancelled", "answers 499", "llm", this.upstream::requests,
				() -> this.llm.complete("cancelled", "hi", "tour-499"),
				(o) -> expectFailure(o, policy("llm").forStatus(499, "request_cancelled"), true)));
		rows.add(call("520 unknown status", "answers 520", "catalog", this.upstream::requests, () -> this.catalog.status(520),
				(o) -> expectFailure(o, policy("catalog").forStatus(520, "upstream_error"), true)));
		rows.add(call("529 invalid_request_error", "529, error.type invalid_request_error", "llm", this.upstream::requests,
				() -> this.llm.complete("invalid", "hi", "tour-invalid"),
				(o) -> expectFailure(o, policy("llm").forStatus(529, "invalid_request_error"), true)));
		rows.add(call("529 overloaded_error", "529, error.type overloaded_error", "llm", this.upstream::requests,
				() -> this.llm.complete("overloaded", "hi", "tour-overloaded"),
				(o) -> expectFailure(o, policy("llm").forStatus(529, "overloaded_error"), true)));
		rows.addAll(breakerRun());
		rows.add(proxyRun());
		rows.addAll(overloadRows());
		rows.addAll(channelRows());
		rows.addAll(poisonRows());
		rows.addAll(httpServiceRows());
		rows.addAll(this.reload.play(WAREHOUSE));
		rows.addAll(seedRows());
		rows.addAll(this.fleet.play());
		return rows;
	}

	/**
	 * SPEC 11: the same table on a Spring HTTP service client ({@code @HttpExchange} on a {@code RestClient},
	 * created with {@code TriageHttpServices.createClient}), behind the same gateway: a flapping 503 is retried, a
	 * 404 is one attempt and Triage's typed exception, a 599 is one attempt, and a run of 599s opens the client's
	 * breaker, after which its {@code TriageFallback<WarehouseApi>} answers without the wire.
	 */
	private List<Row> httpServiceRows() {
		List<Row> rows = new ArrayList<>();
		CircuitBreaker breaker = this.breakers.circuitBreaker(WAREHOUSE);
		breaker.reset();
		rows.add(call(HTTP + "item sku-2", "answers 200", WAREHOUSE, this.gateway::requests,
				() -> remember(this.warehouse.item("sku-2")), (o) -> expectSuccess(o, 1)));
		rows.add(call(HTTP + "flapping 503", "503 twice, then 200", WAREHOUSE, this.gateway::requests, () -> {
			this.upstream.flap(WAREHOUSE, 2, 503);
			return this.warehouse.flap(WAREHOUSE);
		}, (o) -> expectRecovery(o, policy(WAREHOUSE).forStatus(503, "flapping"), 2)));
		rows.add(call(HTTP + "404 Not Found", "answers 404", WAREHOUSE, this.gateway::requests,
				() -> this.warehouse.status(404), (o) -> {
					List<String> problems = expectFailure(o, policy(WAREHOUSE).forStatus(404, "upstream_error"), true);
					if (!(o.thrown() instanceof UpstreamResponseException response) || response.response().status() != 404) {
						problems.add("expected UpstreamResponseException 404, got " + describe(o.result(), o.thrown()));
					}
					return problems;
				}));
		// The rows above fed the breaker (each failed 503 attempt is a failure): the 599 run starts from an empty
		// window, so that its fourth 599 is the one that opens it.
		breaker.reset();
		rows.add(call(HTTP + "599 once", "backend resets: 599", WAREHOUSE, this.gateway::requests,
				this.warehouse::reset,
				(o) -> expectFailure(o, policy(WAREHOUSE).forStatus(599, "proxy_upstream_reset"), true)));
		int toOpen = breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls() - 1;
		rows.add(batch(HTTP + "599 run", toOpen + " more calls, 599 each", WAREHOUSE, this.gateway::requests, toOpen,
				this.warehouse::reset, (o, refusals) -> {
					List<String> problems = new ArrayList<>();
					if (o.wire() != toOpen) {
						problems.add("599 is never retried: expected " + toOpen + " requests, saw " + o.wire());
					}
					if (breaker.getState() != CircuitBreaker.State.OPEN) {
						problems.add("a run of 599s should open the breaker, it is " + breaker.getState());
					}
					return problems;
				}, (o, refusals) -> "UpstreamResponseException 599 x" + toOpen));
		rows.add(call(HTTP + "breaker open", "not called", WAREHOUSE, this.gateway::requests,
				() -> this.warehouse.item("sku-2"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (o.wire() != 0) {
						problems.add("an open breaker let " + o.wire() + " request(s) through");
					}
					if (o.record() == null || o.record().outcome() != CallOutcome.FALLBACK) {
						problems.add("the fallback should have answered the short-circuited call");
					}
					if (!(o.result() instanceof Item item) || !item.degraded()) {
						problems.add("expected the cached item marked degraded, got " + describe(o.result(), o.thrown()));
					}
					return problems;
				}));
		return rows;
	}

	/**
	 * Seed 001: "重试解决抖动，切换解决故障". The SMS provider goes down: each call's failed attempt moves at once to
	 * the backup; after enough failures the primary's breaker opens and calls go straight to the backup; when
	 * the primary recovers, its half-open probe brings calls back.
	 */
	private List<Row> channelRows() {
		List<Row> rows = new ArrayList<>();
		CircuitBreaker primary = this.breakers.circuitBreaker("sms");
		primary.reset();
		this.upstream.setDown(true);
		rows.add(smsCall("primary down, backup answers", "primary 503, backup 200", 1, 1, null));
		int toOpen = primary.getCircuitBreakerConfig().getMinimumNumberOfCalls() - 1;
		for (int i = 1; i <= toOpen; i++) {
			boolean last = i == toOpen;
			rows.add(smsCall("primary down, call " + (i + 1), "primary 503, backup 200", 1, 1,
					last ? CircuitBreaker.State.OPEN : null));
		}
		rows.add(smsCall("primary breaker open", "backup 200", 0, 1, CircuitBreaker.State.OPEN));
		this.upstream.setDown(false);
		sleep(Duration.ofMillis(
				primary.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1)).plusMillis(200));
		rows.add(smsCall("primary recovers: fail-back", "primary 200 (half-open probe)", 1, 0,
				CircuitBreaker.State.CLOSED));
		return rows;
	}

	private Row smsCall(String scenario, String upstreamDid, int primaryHits, int backupHits,
			CircuitBreaker.State breakerAfter) {
		int primaryBefore = this.upstream.requests();
		int backupBefore = this.failover.backup().requests();
		Row row = call(scenario, upstreamDid, "sms", () -> this.upstream.requests() + this.failover.backup().requests(),
				() -> this.failover.sms().send("{\"to\":\"+100\",\"text\":\"hi\"}", "sms-" + scenario.hashCode()),
				(o) -> {
					List<String> problems = new ArrayList<>();
					int primary = this.upstream.requests() - primaryBefore;
					int backup = this.failover.backup().requests() - backupBefore;
					if (o.thrown() != null) {
						problems.add("expected an answer, got " + describe(null, o.thrown()));
					}
					if (primary != primaryHits || backup != backupHits) {
						problems.add("expected primary " + primaryHits + " / backup " + backupHits + ", saw " + primary
								+ " / " + backup);
					}
					CircuitBreaker.State state = this.breakers.circuitBreaker("sms").getState();
					if (breakerAfter != null && state != breakerAfter) {
						problems.add("primary breaker should be " + breakerAfter + ", is " + state);
					}
					return problems;
				});
		int primary = this.upstream.requests() - primaryBefore;
		int backup = this.failover.backup().requests() - backupBefore;
		return new Row(row.scenario(), row.upstreamDid(), row.failureClass(), row.wire(), row.waited(),
				row.breakerAfter(), row.fallback(),
				"primary " + primary + " / backup " + backup + ": " + row.callerGot(), row.disagreements());
	}

	/**
	 * Seed 001: "同一个请求重试三次都是 500，就不再是上游抖动了，把它扔进死信队列". One order trips a bug in the upstream
	 * while other orders go through: after three 500s it goes to the dead letter, and is refused afterwards.
	 */
	private List<Row> poisonRows() {
		List<Row> rows = new ArrayList<>();
		int lettersBefore = this.failover.deadLetters().letters().size();
		rows.add(call("other orders succeed", "answers 200", "catalog", this.upstream::requests,
				() -> this.catalog.order("A-100"), (o) -> expectSuccess(o, 1)));
		Rule row = policy("catalog").forStatus(500, "internal_error");
		// The call stops at the poison threshold when it comes before the row's last attempt.
		int threshold = this.clients.get("catalog").poison().settings().threshold();
		Rule rule = (threshold < row.maxAttempts()) ? row.toBuilder().maxAttempts(threshold).build() : row;
		rows.add(call("poison order", "500 for this order only", "catalog", this.upstream::requests,
				() -> this.catalog.order("poison"), (o) -> {
					List<String> problems = expectFailure(o, rule, true);
					int letters = this.failover.deadLetters().letters().size() - lettersBefore;
					if (letters != 1) {
						problems.add("expected 1 dead letter after " + rule.maxAttempts() + " x 500, saw " + letters);
					}
					return problems;
				}));
		rows.add(call("poison order again", "not called", "catalog", this.upstream::requests,
				() -> this.catalog.order("poison"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamUnavailableException refused) || refused.refusal() != Refusal.POISON) {
						problems.add("a poison request should be refused POISON, got " + describe(o.result(), o.thrown()));
					}
					if (o.wire() != 0) {
						problems.add("a poison request reached the wire " + o.wire() + " time(s)");
					}
					return problems;
				}));
		rows.add(call("other orders still succeed", "answers 200", "catalog", this.upstream::requests,
				() -> this.catalog.order("A-101"), (o) -> expectSuccess(o, 1)));
		return rows;
	}

	/**
	 * Seed 000's proxy: a backend that resets every connection is a 599 each time; never retried, each one a
	 * breaker failure and an alert-worthy (WARN) call-log line, until the breaker opens.
	 */
	private Row proxyRun() {
		CircuitBreaker breaker = this.breakers.circuitBreaker("inventory");
		breaker.reset();
		int calls = breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls();
		int alertsBefore = this.lastCall.alertWorthy();
		return batch("599 run (backend resets)", calls + " calls, proxy answers 599 each", "inventory",
				this.gateway::requests, calls, () -> this.inventory.reset(), (o, refusals) -> {
					List<String> problems = new ArrayList<>();
					int alerts = this.lastCall.alertWorthy() - alertsBefore;
					if (o.wire() != calls) {
						problems.add("599 is never retried: expected " + calls + " requests, saw " + o.wire());
					}
					if (breaker.getState() != CircuitBreaker.State.OPEN) {
						problems.add("a run of 599s should open the breaker, it is " + breaker.getState());
					}
					if (alerts != calls) {
						problems.add("every 599 is alert-worthy: expected " + calls + " WARN lines, saw " + alerts);
					}
					return problems;
				}, (o, refusals) -> (this.lastCall.alertWorthy() - alertsBefore) + " WARN call-log lines");
	}

	/**
	 * Return how many retries a budget allows calls made within a time: in any one of its windows, its reserve and
	 * its ratio of the first attempts; a storm slower than a window spans more of them.
	 */
	static long budgetAllows(RetryBudget.Settings budget, int firstAttempts, Duration took) {
		long windows = Math.max(1, -Math.floorDiv(-took.toMillis(), budget.window().toMillis()));
		return (long) Math.floor(windows * (budget.minRetriesPerSecond() * budget.window().toMillis() / 1000.0
				+ budget.ratio() * firstAttempts));
	}

	/**
	 * SPEC 8: what keeps a struggling upstream from being buried.
	 */
	private List<Row> overloadRows() {
		List<Row> rows = new ArrayList<>();
		int stormCalls = 100;
		RetryBudget.Settings budget = this.clients.get("storm").overload().budget().settings();
		int tableAttempts = policy("storm").forStatus(503, "upstream_error").maxAttempts();
		rows.add(batch("503 storm, retry budget", stormCalls + " calls, 503 to all", "storm", this.upstream::requests,
				stormCalls, () -> this.overload.storm().report(), (o, refusals) -> {
					List<String> problems = new ArrayList<>();
					long allowed = stormCalls + budgetAllows(budget, stormCalls, o.waited());
					if (o.wire() > allowed) {
						problems.add("the budget allows at most " + allowed + " requests, " + o.wire() + " were sent");
					}
					if (o.wire() >= stormCalls * tableAttempts) {
						problems.add("the budget did not cut any retry");
					}
					return problems;
				}, (o, refusals) -> String.format(Locale.ROOT, "%.2fx load (table alone: %d.00x)",
						o.wire() / (double) stormCalls, tableAttempts)));
		rows.add(pauseRow());
		int bulkCalls = 200;
		rows.add(batch("429 flood, throttling", bulkCalls + " calls, 429 to all", "bulk", this.upstream::requests,
				bulkCalls, () -> this.overload.bulk().export(), (o, refusals) -> {
					List<String> problems = new ArrayList<>();
					int throttled = refusals.getOrDefault(Refusal.THROTTLED, 0);
					if (o.wire() + throttled != bulkCalls) {
						problems.add("every call either reached the upstream or was throttled");
					}
					if (o.wire() > bulkCalls / 2) {
						problems.add("throttling should have cut most calls, " + o.wire() + " reached the upstream");
					}
					return problems;
				}, (o, refusals) -> refusals.getOrDefault(Refusal.THROTTLED, 0) + " refused THROTTLED"));
		RateLimiter limiter = this.limiters.rateLimiter("limited");
		int permits = limiter.getRateLimiterConfig().getLimitForPeriod();
		int limitedCalls = permits * 2;
		awaitFreshPeriod(limiter);
		rows.add(batch("rate-limited client", limitedCalls + " calls, 200 to all", "limited", this.upstream::requests,
				limitedCalls, () -> this.overload.limited().ping(), (o, refusals) -> {
					List<String> problems = new ArrayList<>();
					if (o.wire() != permits) {
						problems.add("the limiter allows " + permits + " per period, " + o.wire() + " were sent");
					}
					if (refusals.getOrDefault(Refusal.RATE_LIMITED, 0) != limitedCalls - permits) {
						problems.add("the calls beyond the permits should be refused RATE_LIMITED");
					}
					return problems;
				}, (o, refusals) -> refusals.getOrDefault(Refusal.RATE_LIMITED, 0) + " refused RATE_LIMITED"));
		return rows;
	}

	/**
	 * Returns at the start of one of the limiter's refresh periods with all its permits, so that the row's calls
	 * fall into one period (10 quick loopback calls in a 10s period): a row begun late in a period would get that
	 * period's permits and, after the refresh, the next one's too. Resilience4j counts periods from the limiter's
	 * creation; draining the current one makes the first moment with permits again the start of the next.
	 */
	private static void awaitFreshPeriod(RateLimiter limiter) {
		int permits = limiter.getRateLimiterConfig().getLimitForPeriod();
		limiter.drainPermissions();
		while (limiter.getMetrics().getAvailablePermissions() < permits) {
			long nanos = (limiter instanceof AtomicRateLimiter atomic) ? atomic.getDetailedMetrics().getNanosToWait()
					: limiter.getRateLimiterConfig().getLimitRefreshPeriod().toNanos();
			LockSupport.parkNanos(Math.max(nanos, Duration.ofMillis(1).toNanos()));
		}
	}

	/**
	 * Caller A gets a 429 with Retry-After: 1 and waits to retry; caller B, meanwhile, is refused at once
	 * without reaching the upstream.
	 */
	private Row pauseRow() {
		this.upstream.exhaustQuota("pause");
		CompletableFuture<String> callerA = CompletableFuture.supplyAsync(() -> this.catalog.quota("pause"));
		Pause pause = this.clients.get("catalog").overload().pause();
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (!pause.isPaused() && !callerA.isDone() && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		Row row = call("429 pauses the upstream", "caller A got 429 + Retry-After: 1", "catalog", this.upstream::requests,
				this.catalog::ok, (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamUnavailableException refused)
							|| refused.refusal() != Refusal.PAUSED) {
						problems.add("caller B should be refused PAUSED, got " + describe(o.result(), o.thrown()));
					}
					if (o.wire() != 0) {
						problems.add("a paused upstream got " + o.wire() + " request(s) from caller B");
					}
					return problems;
				}, false);
		String a = callerA.handle((result, failure) -> (failure == null) ? result : failure.toString()).join();
		return new Row(row.scenario(), row.upstreamDid(), row.failureClass(), row.wire(), row.waited(),
				row.breakerAfter(), row.fallback(), "B refused PAUSED; A waited, then got " + a,
				a.contains("quota") ? row.disagreements() : append(row.disagreements(), "caller A should succeed after its wait"));
	}

	/**
	 * An error inside a 200 stream, a maintenance window that pauses the upstream for every caller, and a bulkhead
	 * that refuses a second concurrent call (SPEC 4.1, 8.2, 8.5), on the llm client.
	 */
	private List<Row> seedRows() {
		List<Row> rows = new ArrayList<>();
		rows.add(call("200 stream, error event", "SSE: 2 events, then event: error", "llm", this.upstream::requests,
				() -> this.llm.complete("stream-error", "hi", "tour-stream"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamResponseException response)
							|| response.response().status() != 200
							|| !"overloaded_error".equals(response.response().errorType())) {
						problems.add("expected UpstreamResponseException 200 overloaded_error, got "
								+ describe(o.result(), o.thrown()));
					}
					if (o.wire() != 1) {
						problems.add("an error inside a stream is never retried: expected 1 request, saw " + o.wire());
					}
					return problems;
				}));
		Row window = call("503 + Retry-After: 120", "maintenance: 503, back in 2 minutes", "llm", this.upstream::requests,
				() -> this.llm.complete("maintenance", "hi", "tour-maintenance"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamResponseException)) {
						problems.add("expected the 503, got " + describe(o.result(), o.thrown()));
					}
					if (o.wire() != 1) {
						problems.add("longer than retry-after-max: expected 1 request, saw " + o.wire());
					}
					return problems;
				});
		rows.add(window);
		rows.add(call("maintenance pauses others", "another caller during the window", "llm", this.upstream::requests,
				() -> this.llm.complete("ok", "hi", "tour-paused"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamUnavailableException refused)
							|| refused.refusal() != Refusal.PAUSED) {
						problems.add("expected a PAUSED refusal, got " + describe(o.result(), o.thrown()));
					}
					if (o.wire() != 0) {
						problems.add("a paused upstream got " + o.wire() + " request(s)");
					}
					return problems;
				}, false));
		waitOutPause("llm");
		CompletableFuture<String> holder = CompletableFuture
			.supplyAsync(() -> this.llm.complete("slow", "hi", "tour-bulkhead-holder"));
		io.github.resilience4j.bulkhead.Bulkhead bulkhead = this.bulkheads.bulkhead("llm");
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (bulkhead.getMetrics().getAvailableConcurrentCalls() > 0 && !holder.isDone()
				&& System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		rows.add(call("bulkhead full", "1 concurrent call allowed, 1 in flight", "llm", this.upstream::requests,
				() -> this.llm.complete("ok", "hi", "tour-bulkhead"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (!(o.thrown() instanceof UpstreamUnavailableException refused)
							|| refused.refusal() != Refusal.BULKHEAD_FULL) {
						problems.add("expected a BULKHEAD_FULL refusal, got " + describe(o.result(), o.thrown()));
					}
					return problems;
				}, false));
		holder.handle((result, failure) -> result).join();
		return rows;
	}

	private static List<String> append(List<String> list, String item) {
		List<String> copy = new ArrayList<>(list);
		copy.add(item);
		return copy;
	}

	/**
	 * A row of many calls: the wire is counted over all of them, refusals are tallied by reason.
	 */
	private Row batch(String scenario, String upstreamDid, String client, IntSupplier wireCounter, int calls,
			Callable<Object> action, BiFunction<Observed, Map<Refusal, Integer>, List<String>> check,
			BiFunction<Observed, Map<Refusal, Integer>, String> callerGot) {
		waitOutPause(client);
		int before = wireCounter.getAsInt();
		long start = System.nanoTime();
		Map<Refusal, Integer> refusals = new EnumMap<>(Refusal.class);
		Map<String, Integer> outcomes = new TreeMap<>();
		for (int i = 0; i < calls; i++) {
			try {
				action.call();
				outcomes.merge("success", 1, Integer::sum);
			}
			catch (UpstreamUnavailableException refused) {
				refusals.merge(refused.refusal(), 1, Integer::sum);
			}
			catch (Throwable ex) {
				outcomes.merge(describe(null, ex), 1, Integer::sum);
			}
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		Observed observed = new Observed(null, null, wireCounter.getAsInt() - before, waited, this.lastCall.take());
		String breaker = this.breakers.circuitBreaker(client).getState().name();
		String failureClass = (observed.record() == null || observed.record().code().equals("none")) ? "-"
				: observed.record().failureClass() + " " + observed.record().code();
		return new Row(scenario, upstreamDid, failureClass, observed.wire(), waited, breaker, "no",
				callerGot.apply(observed, refusals), check.apply(observed, refusals));
	}

	private List<Row> breakerRun() {
		List<Row> rows = new ArrayList<>();
		CircuitBreaker breaker = this.breakers.circuitBreaker("inventory");
		// The gateway rows above already fed this breaker; the run starts from an empty window.
		breaker.reset();
		this.upstream.setSick(false);
		rows.add(call("item sku-1 (breaker reset)", "answers 200", "inventory", this.gateway::requests,
				() -> remember(this.inventory.item("sku-1")), (o) -> expectSuccess(o, 1)));
		this.upstream.setSick(true);
		Rule sick = policy("inventory").forStatus(500, "internal_error");
		rows.add(call("5xx run, call 1", "answers 500", "inventory", this.gateway::requests,
				() -> this.inventory.item("sku-1"), (o) -> expectDegraded(o, sick, sick.maxAttempts())));
		rows.add(call("5xx run, call 2", "answers 500", "inventory", this.gateway::requests,
				() -> this.inventory.item("sku-1"), (o) -> {
					List<String> problems = expectDegraded(o, sick, -1);
					if (breaker.getState() != CircuitBreaker.State.OPEN) {
						problems.add("breaker should have opened during the run, is " + breaker.getState());
					}
					if (o.wire() > sick.maxAttempts()) {
						problems.add("more attempts than max-attempts " + sick.maxAttempts());
					}
					return problems;
				}));
		rows.add(call("breaker open", "not called", "inventory", this.gateway::requests,
				() -> this.inventory.item("sku-1"), (o) -> {
					List<String> problems = new ArrayList<>();
					if (o.wire() != 0) {
						problems.add("an open breaker let " + o.wire() + " request(s) through");
					}
					if (o.record() == null || o.record().outcome() != CallOutcome.FALLBACK) {
						problems.add("the fallback should have answered the short-circuited call");
					}
					return problems;
				}));
		this.upstream.setSick(false);
		sleep(this.inventoryOpenWait.plusMillis(200));
		int probes = breaker.getCircuitBreakerConfig().getPermittedNumberOfCallsInHalfOpenState();
		for (int i = 1; i <= probes; i++) {
			boolean last = i == probes;
			rows.add(call("half-open probe " + i, "recovered: 200", "inventory", this.gateway::requests,
					() -> remember(this.inventory.item("sku-1")), (o) -> {
						List<String> problems = expectSuccess(o, 1);
						if (last && breaker.getState() != CircuitBreaker.State.CLOSED) {
							problems.add("probes succeeded but the breaker is " + breaker.getState());
						}
						return problems;
					}));
		}
		return rows;
	}

	private Item remember(Item item) {
		this.cache.remember(item);
		return item;
	}

	private PolicyTable policy(String client) {
		return this.clients.get(client).policy();
	}

	private Row call(String scenario, String upstreamDid, String client, IntSupplier wireCounter, Callable<Object> action,
			Function<Observed, List<String>> check) {
		return call(scenario, upstreamDid, client, wireCounter, action, check, true);
	}

	private Row call(String scenario, String upstreamDid, String client, IntSupplier wireCounter, Callable<Object> action,
			Function<Observed, List<String>> check, boolean quietStart) {
		if (quietStart) {
			waitOutPause(client);
		}
		this.lastCall.take();
		int before = wireCounter.getAsInt();
		long start = System.nanoTime();
		Object result = null;
		Throwable thrown = null;
		try {
			result = action.call();
		}
		catch (Throwable ex) {
			thrown = ex;
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		int wire = wireCounter.getAsInt() - before;
		CallRecord record = this.lastCall.take();
		Observed observed = new Observed(result, thrown, wire, waited, record);
		String breaker = this.breakers.circuitBreaker(client).getState().name();
		String failureClass = (record == null || record.code().equals("none")) ? "-"
				: record.failureClass() + " " + record.code();
		String fallback = (record != null && (record.outcome() == CallOutcome.FALLBACK))
				? "yes: " + ((record.failure() instanceof UpstreamResponseException) ? "(null, response)"
						: "(" + record.failure().getClass().getSimpleName() + ", null)")
				: "no";
		return new Row(scenario, upstreamDid, failureClass, wire, waited, breaker, fallback, describe(result, thrown),
				check.apply(observed));
	}

	static String describe(Object result, Throwable thrown) {
		if (thrown instanceof UpstreamResponseException response) {
			return "UpstreamResponseException " + response.response().status()
					+ ((response.response().errorType() != null) ? " " + response.response().errorType() : "");
		}
		if (thrown instanceof UpstreamTransportException transport) {
			return "UpstreamTransportException " + transport.failure().key();
		}
		if (thrown instanceof UpstreamUnavailableException refused) {
			return "UpstreamUnavailableException " + refused.refusal();
		}
		if (thrown != null) {
			return thrown.getClass().getSimpleName();
		}
		if (result instanceof Item item) {
			return item.degraded() ? "cached item (degraded: " + item.degradedReason() + ")" : "live item";
		}
		return String.valueOf(result);
	}

	private static List<String> expectSuccess(Observed o, int wire) {
		List<String> problems = new ArrayList<>();
		if (o.thrown() != null) {
			problems.add("expected success, got " + o.thrown().getClass().getSimpleName());
		}
		if (o.wire() != wire) {
			problems.add("expected " + wire + " request(s) on the wire, saw " + o.wire());
		}
		return problems;
	}

	/** A failure that lasts: the table's max-attempts, or one attempt where the request may not be replayed. */
	private static List<String> expectFailure(Observed o, Rule rule, boolean idempotent) {
		List<String> problems = new ArrayList<>();
		int expected = (rule.idempotentOnly() && !idempotent) ? 1 : rule.maxAttempts();
		if (!(o.thrown() instanceof UpstreamException)) {
			problems.add("expected a typed UpstreamException, got " + ((o.thrown() == null) ? "success" : o.thrown()));
		}
		if (o.wire() != expected) {
			problems.add("policy says " + expected + " attempt(s), " + o.wire() + " reached the wire");
		}
		if (o.record() != null && o.record().alert() != rule.alert()) {
			problems.add("policy says alert=" + rule.alert() + ", call reported alert=" + o.record().alert());
		}
		return problems;
	}

	private static List<String> expectRecovery(Observed o, Rule rule, int failures) {
		if (failures >= rule.maxAttempts()) {
			return expectFailure(o, rule, true);
		}
		return expectSuccess(o, failures + 1);
	}

	private static List<String> expectRateLimitWaited(Observed o, Rule rule) {
		List<String> problems = expectRecovery(o, rule, 1);
		if (rule.retryAfter() == RetryAfterMode.HONOR && o.waited().compareTo(Duration.ofMillis(950)) < 0) {
			problems.add("Retry-After: 1 is honored but the call took only " + o.waited().toMillis() + "ms");
		}
		return problems;
	}

	private static List<String> expectDegraded(Observed o, Rule rule, int wire) {
		List<String> problems = new ArrayList<>();
		if (!(o.result() instanceof Item item) || !item.degraded()) {
			problems.add("expected the cached item marked degraded, got " + describe(o.result(), o.thrown()));
		}
		if (wire >= 0 && o.wire() != wire) {
			problems.add("policy says " + wire + " attempt(s), " + o.wire() + " reached the wire");
		}
		return problems;
	}

	/**
	 * Every scenario starts from a quiet upstream: a pause asked for by the previous row's Retry-After (which
	 * would rightly refuse this row's call) is waited out first.
	 */
	private void waitOutPause(String client) {
		Instant until = this.clients.get(client).overload().pause().until();
		if (until != null) {
			sleep(Duration.between(Instant.now(), until).plusMillis(20));
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	record Observed(Object result, Throwable thrown, int wire, Duration waited, CallRecord record) {
	}

}
