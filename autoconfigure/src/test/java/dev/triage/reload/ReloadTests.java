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

package dev.triage.reload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.triage.Refusal;
import dev.triage.UpstreamException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.channel.Channel;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.Pause;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * SPEC §12 through Spring Cloud Context's {@link EnvironmentChangeEvent}, as {@code /actuator/refresh}, Spring
 * Cloud Bus or a ConfigMap reload publish it: a property source changes, the event names its keys, and the next
 * call uses the new table while state (breakers, calls in flight) carries over; a bad change is refused whole.
 * Counted at the wire.
 */
@WithoutProtection
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000",
				"triage.policies.503.backoff.initial=1ms", "triage.policies.503.backoff.max=1ms" })
class ReloadTests extends LoopbackUpstream {

	private static final String MAX_ATTEMPTS = "triage.clients.inventory.policies.503.max-attempts";

	@Autowired
	ConfigurableApplicationContext context;

	@Autowired
	ConfigHistory history;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	ManagedClients clients;

	@Autowired
	MeterRegistry meters;

	@Autowired
	ContextRefresher refresher;

	private final Map<String, Object> changes = new ConcurrentHashMap<>();

	@BeforeEach
	void changeablePropertySource() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		this.context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("operator", this.changes));
	}

	@AfterEach
	void restore() {
		this.breakers.circuitBreaker("inventory").reset();
		Set<String> keys = Set.copyOf(this.changes.keySet());
		this.changes.clear();
		this.context.getEnvironment().getPropertySources().remove("operator");
		change(keys);
	}

	@Test
	void aChangedRowAppliesToTheNextCallAndTheVersionCountsIt() {
		long version = this.history.status().version();
		double applied = reloads("applied");
		catchThrowable(() -> this.inventory.item("before"));
		assertThat(wireCount()).as("the startup table: 503 tried 3 times").isEqualTo(3);

		set(MAX_ATTEMPTS, "1");

		upstream.resetRequests();
		catchThrowable(() -> this.inventory.item("after"));
		assertThat(wireCount()).as("the new table: 503 tried once").isEqualTo(1);
		assertThat(this.history.status().version()).isEqualTo(version + 1);
		assertThat(reloads("applied")).isEqualTo(applied + 1);
		upstream.resetRequests();
		catchThrowable(() -> this.billing.invoices());
		assertThat(wireCount()).as("billing's table did not change").isEqualTo(3);
	}

	@Test
	void anInvalidChangeIsRefusedWholeAndTheLastValidTableStays() {
		set(MAX_ATTEMPTS, "2");
		long version = this.history.status().version();
		double rejected = reloads("rejected");

		this.changes.put(MAX_ATTEMPTS, "1");
		this.changes.put("triage.clients.inventory.policies.503.backoff.multiplier", "-3");
		change(Set.of(MAX_ATTEMPTS, "triage.clients.inventory.policies.503.backoff.multiplier"));

		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).as("the last valid table (2 attempts), not part of the refused change").isEqualTo(2);
		ConfigHistory.Status status = this.history.status();
		assertThat(status.version()).isEqualTo(version);
		assertThat(status.lastRejected()).isNotNull();
		assertThat(status.lastRejected().reason()).contains("triage.clients.inventory.policies.503.backoff.multiplier")
			.contains("-3");
		assertThat(reloads("rejected")).isEqualTo(rejected + 1);
	}

	@Test
	void anUnknownKeyIsRefusedAsAtStartup() {
		long version = this.history.status().version();

		// Spring Cloud's rebinding of the properties bean fails on the unknown key too, after Triage refused it.
		catchThrowable(() -> set("triage.clients.inventory.policies.503.max-atempts", "1"));

		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).isEqualTo(3);
		assertThat(this.history.status().version()).isEqualTo(version);
		assertThat(this.history.status().lastRejected().reason()).contains("max-atempts");
	}

	@Test
	void anOpenBreakerStaysOpenAcrossAReload() {
		CircuitBreaker breaker = this.breakers.circuitBreaker("inventory");
		breaker.transitionToOpenState();

		set(MAX_ATTEMPTS, "1");

		assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(this.breakers.circuitBreaker("inventory")).isSameAs(breaker);
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
		assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(wireCount()).as("refused by the breaker that stayed open").isZero();
	}

	@Test
	void aPauseLearnedBeforeAReloadStillHolds() throws Exception {
		Pause pause = this.clients.find("inventory").overload().pause();
		pause.pauseFor(Duration.ofMillis(1500));
		try {
			set(MAX_ATTEMPTS, "1");

			assertThat(this.clients.find("inventory").overload().pause()).isSameAs(pause);
			Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
			assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
			assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.PAUSED);
			assertThat(wireCount()).isZero();
		}
		finally {
			while (pause.isPaused()) {
				Thread.sleep(20);
			}
		}
	}

	@Test
	void aCallInFlightKeepsTheTableItStartedWith() throws Exception {
		// The first table waits 1s between attempts, so that the change lands while the call waits.
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));
		set("triage.clients.inventory.policies.503.backoff.initial", "1s");
		set("triage.clients.inventory.policies.503.backoff.max", "1s");
		set("triage.clients.inventory.policies.503.backoff.jitter", "0");
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<Throwable> inFlight = executor.submit(() -> catchThrowable(() -> this.inventory.item("held")));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (wireCount() == 0 && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			assertThat(wireCount()).as("the call has made its first attempt").isGreaterThanOrEqualTo(1);

			set(MAX_ATTEMPTS, "1");

			assertThat(inFlight.get(30, TimeUnit.SECONDS)).isInstanceOf(UpstreamException.class);
			assertThat(requestsFor("/items/held")).as("the call kept its table: 3 attempts").isEqualTo(3);
			catchThrowable(() -> this.inventory.item("next"));
			assertThat(requestsFor("/items/next")).as("the next call uses the new table").isEqualTo(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void callsDuringManyReloadsEachSeeOneWholeTable() throws Exception {
		// Table A: 503 tried once. Table B: 503 tried 3 times. A call that mixed them would make 2 attempts.
		set(MAX_ATTEMPTS, "1");
		AtomicBoolean done = new AtomicBoolean();
		AtomicInteger ids = new AtomicInteger();
		ExecutorService callers = Executors.newFixedThreadPool(50);
		CountDownLatch started = new CountDownLatch(50);
		List<Future<?>> running = new ArrayList<>();
		try {
			for (int i = 0; i < 50; i++) {
				running.add(callers.submit(() -> {
					started.countDown();
					while (!done.get()) {
						String id = "c" + ids.incrementAndGet();
						catchThrowable(() -> this.inventory.item(id));
						// Leaves the reloading thread (and Spring Cloud's rebinding of every properties bean it
						// triggers) a share of the two cores a CI machine has.
						Thread.sleep(20);
					}
					return null;
				}));
			}
			started.await(10, TimeUnit.SECONDS);
			for (int i = 0; i < 100; i++) {
				set(MAX_ATTEMPTS, (i % 2 == 0) ? "3" : "1");
				Thread.sleep(2);
			}
		}
		finally {
			done.set(true);
			for (Future<?> caller : running) {
				caller.get(60, TimeUnit.SECONDS);
			}
			callers.shutdownNow();
		}
		Map<String, Long> attemptsPerCall = upstream.getAllServeEvents()
			.stream()
			.map((event) -> event.getRequest().getUrl())
			.filter((url) -> url.startsWith("/items/c"))
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
		Map<Long, Long> calls = attemptsPerCall.values()
			.stream()
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
		assertThat(attemptsPerCall).as("calls made").hasSizeGreaterThan(100);
		assertThat(calls.keySet()).as("attempts per call: one table or the other, never a mix").containsOnly(1L, 3L);
		assertThat(calls).as("both tables were in force while calls ran").containsKeys(1L, 3L);
	}

	@Test
	void switchingAClientOffWaitsForTheNextStartAndSaysSo(CapturedOutput output) {
		long version = this.history.status().version();

		set("triage.clients.inventory.enabled", "false");

		assertThat(output).contains("[triage.clients.inventory.enabled]").contains("at the next start");
		assertThat(this.history.status().version()).as("nothing was put in force").isEqualTo(version);
		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).as("still managed: the 503 row retries").isEqualTo(3);
	}

	@Test
	void aBadValueOfAKeyReadAtTheNextStartIsRefusedNotPromisedForThatStart(CapturedOutput output) {
		// The next start would refuse each: a change must not be acknowledged as "applies at the next start".
		String[][] bad = { { "triage.clients.inventory.fleet-rate-limit.limit-for-period", "0" },
				{ "triage.clients.inventory.fleet-rate-limit.lease", "50" }, { "triage.fleet.timeout", "0ms" },
				{ "triage.connection-pool.evict-idle-after", "-1s" } };
		for (String[] each : bad) {
			long version = this.history.status().version();
			double rejected = reloads("rejected");
			this.changes.clear();
			if (each[0].endsWith(".lease")) {
				this.changes.put("triage.clients.inventory.fleet-rate-limit.limit-for-period", "10");
			}

			set(each[0], each[1]);

			assertThat(reloads("rejected")).as(each[0]).isEqualTo(rejected + 1);
			assertThat(this.history.status().version()).isEqualTo(version);
			assertThat(this.history.status().lastRejected().reason()).as(each[0]).contains(each[0]);
		}
		assertThat(output).doesNotContain("at the next start");
	}

	@Test
	void goingBackToTheSettingsInForceAfterARefusedChangeAppliesNothing(CapturedOutput output) {
		set(MAX_ATTEMPTS, "2");
		long version = this.history.status().version();
		double applied = reloads("applied");
		set(MAX_ATTEMPTS, "0");
		assertThat(this.history.status().lastRejected().reason()).contains(MAX_ATTEMPTS);

		// The operator puts the value in force back, and changes a restart-only key with it.
		this.changes.put(MAX_ATTEMPTS, "2");
		this.changes.put("triage.clients.inventory.enabled", "true");
		change(Set.of(MAX_ATTEMPTS, "triage.clients.inventory.enabled"));

		assertThat(this.history.status().version()).as("nothing new was put in force").isEqualTo(version);
		assertThat(reloads("applied")).isEqualTo(applied);
		assertThat(output).doesNotContain("version " + (version + 1) + " in force");
		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).as("the table in force all along").isEqualTo(2);

		set(MAX_ATTEMPTS, "1");
		assertThat(this.history.status().version()).as("the next real change counts").isEqualTo(version + 1);
		assertThat(output).contains("Triage put settings version " + (version + 1) + " in force (changed: ["
				+ MAX_ATTEMPTS + "])");
	}

	@Test
	void aChannelAddedStartsFreshAndARemovedOneGoesWithItsBreaker() {
		String key = "triage.clients.inventory.channels.backup";
		set(key, upstream.baseUrl());

		assertThat(this.clients.find("inventory").channels().all()).extracting(Channel::name)
			.containsExactly("primary", "backup");
		assertThat(this.breakers.find("inventory-backup")).isPresent();
		assertThat(this.breakers.find("inventory-backup").get().getState()).isEqualTo(CircuitBreaker.State.CLOSED);

		this.changes.remove(key);
		change(Set.of(key));

		assertThat(this.clients.find("inventory").channels().all()).extracting(Channel::name).containsExactly("primary");
		assertThat(this.breakers.find("inventory-backup")).isEmpty();
	}

	@Test
	void aChannelThatNowPointsElsewhereGetsAFreshBreaker() {
		String key = "triage.clients.inventory.channels.backup";
		set(key, upstream.baseUrl());
		this.breakers.find("inventory-backup").get().transitionToOpenState();

		set(MAX_ATTEMPTS, "2");
		assertThat(this.breakers.find("inventory-backup").get().getState()).as("the same URL: state kept")
			.isEqualTo(CircuitBreaker.State.OPEN);

		set(key, upstream.baseUrl() + "/elsewhere");
		assertThat(this.breakers.find("inventory-backup").get().getState()).as("another upstream: a fresh breaker")
			.isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(this.clients.find("inventory").channels().all()).extracting(Channel::baseUrl)
			.containsExactly(null, upstream.baseUrl() + "/elsewhere");
		assertThat(this.clients.find("inventory").channels().all().get(1).available()).isTrue();
	}

	@Test
	void channelsWrittenInAnotherOrderFailOverInThatOrder(CapturedOutput output) {
		Map<String, Object> ordered = new LinkedHashMap<>();
		ordered.put("triage.clients.inventory.channels.backup", upstream.baseUrl());
		ordered.put("triage.clients.inventory.channels.second", upstream.baseUrl());
		MutablePropertySources sources = this.context.getEnvironment().getPropertySources();
		sources.addFirst(new MapPropertySource("ordered", ordered));
		try {
			change(ordered.keySet());
			assertThat(this.clients.find("inventory").channels().all()).extracting(Channel::name)
				.containsExactly("primary", "backup", "second");
			long version = this.history.status().version();

			Map<String, Object> reordered = new LinkedHashMap<>();
			reordered.put("triage.clients.inventory.channels.second", upstream.baseUrl());
			reordered.put("triage.clients.inventory.channels.backup", upstream.baseUrl());
			sources.replace("ordered", new MapPropertySource("ordered", reordered));
			change(Set.of());

			assertThat(this.history.status().version()).as("the order is a setting").isEqualTo(version + 1);
			assertThat(this.clients.find("inventory").channels().all()).extracting(Channel::name)
				.containsExactly("primary", "second", "backup");
			assertThat(output).contains("(changed: [triage.clients.inventory.channels])");
		}
		finally {
			sources.remove("ordered");
			change(Set.of());
		}
	}

	@Test
	void theSameValueWrittenAnotherWayIsNoChange() {
		String jitter = "triage.policies.5xx.backoff.jitter";
		String initial = "triage.policies.5xx.backoff.initial";
		set(jitter, "0.2");
		set(initial, "1s");
		long version = this.history.status().version();
		double applied = reloads("applied");

		set(jitter, "0.20");
		set(initial, "1000ms");
		set(initial, "PT1S");

		assertThat(this.history.status().version()).isEqualTo(version);
		assertThat(reloads("applied")).isEqualTo(applied);
		set(jitter, "0.3");
		assertThat(this.history.status().version()).as("a real change counts").isEqualTo(version + 1);
	}

	@Test
	void aChangeTheEventDoesNotNameIsFoundByItsValue() {
		long version = this.history.status().version();
		this.changes.put(MAX_ATTEMPTS, "1");

		change(Set.of());

		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).isEqualTo(1);
		assertThat(this.history.status().version()).isEqualTo(version + 1);
	}

	@Test
	void aRefreshAfterTestPropertyValuesAppliesTheChange() {
		TestPropertyValues.of(MAX_ATTEMPTS + "=1").applyTo(this.context.getEnvironment());
		try {
			this.refresher.refresh();

			catchThrowable(() -> this.inventory.item("1"));
			assertThat(wireCount()).isEqualTo(1);
		}
		finally {
			this.context.getEnvironment().getPropertySources().remove("test");
			change(Set.of(MAX_ATTEMPTS));
		}
	}

	@Test
	void aKeyOutsideTriageChangesNothing() {
		ConfigHistory.Status before = this.history.status();
		this.changes.put("other.setting", "x");
		change(Set.of("other.setting"));
		assertThat(this.history.status()).isSameAs(before);
	}

	private long requestsFor(String url) {
		return upstream.getAllServeEvents().stream().map(ServeEvent::getRequest).filter((r) -> r.getUrl().equals(url))
			.count();
	}

	private double reloads(String outcome) {
		return this.meters.get("triage.config.reloads").tag("outcome", outcome).functionCounter().count();
	}

	private void set(String key, String value) {
		this.changes.put(key, value);
		change(Set.of(key));
	}

	private void change(Set<String> keys) {
		this.context.publishEvent(new EnvironmentChangeEvent(this.context, new HashMap<>(
				keys.stream().collect(Collectors.toMap(Function.identity(), Function.identity()))).keySet()));
	}

}
