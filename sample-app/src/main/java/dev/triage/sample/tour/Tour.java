package dev.triage.sample.tour;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntSupplier;

import dev.triage.TransportFailure;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.feign.CallRecord;
import dev.triage.feign.ManagedClients;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RetryAfterMode;
import dev.triage.policy.Rule;
import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.chaos.Gateway;
import dev.triage.sample.clients.CatalogClient;
import dev.triage.sample.clients.InventoryClient;
import dev.triage.sample.clients.Item;
import dev.triage.sample.clients.ItemCache;
import dev.triage.sample.clients.LlmClient;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

/**
 * The seeds' argument, played live: every scenario is a real call through a real Feign client, its row is
 * filled from the servers' request counters and Triage's own report, and each row is checked against what
 * the client's resolved policy table says should have happened.
 */
public class Tour {

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

	public Tour(CatalogClient catalog, InventoryClient inventory, LlmClient llm, ItemCache cache,
			ChaosUpstream upstream, Gateway gateway, ManagedClients clients, CircuitBreakerRegistry breakers,
			LastCall lastCall) {
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
		return rows;
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
					if (o.record() == null || !"fallback".equals(o.record().outcome())) {
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
		waitOutPause(client);
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
		String fallback = (record != null && "fallback".equals(record.outcome()))
				? "yes: " + ((record.failure() instanceof UpstreamResponseException) ? "(null, response)"
						: "(" + record.failure().getClass().getSimpleName() + ", null)")
				: "no";
		return new Row(scenario, upstreamDid, failureClass, wire, waited, breaker, fallback, describe(result, thrown),
				check.apply(observed));
	}

	private static String describe(Object result, Throwable thrown) {
		if (thrown instanceof UpstreamResponseException response) {
			return "UpstreamResponseException " + response.response().status()
					+ ((response.response().errorType() != null) ? " " + response.response().errorType() : "");
		}
		if (thrown instanceof UpstreamTransportException transport) {
			return "UpstreamTransportException " + transport.failure().key();
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
