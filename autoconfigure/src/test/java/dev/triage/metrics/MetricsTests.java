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

package dev.triage.metrics;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.http.Fault;
import dev.triage.TriageFallback;
import dev.triage.support.BillingClient;
import dev.triage.support.DegradedBilling;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Raw attempts and final outcomes are separate meters; retries issued and suppressed are counted with their
 * reason; tags stay bounded whatever the paths and query values.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=1000000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=1000000" })
@Import(MetricsTests.BillingFallback.class)
class MetricsTests extends LoopbackUpstream {

	@Autowired
	MeterRegistry registry;

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.breakers.circuitBreaker("inventory").reset();
		this.breakers.circuitBreaker("billing").reset();
		snapshot();
	}

	@Test
	void twoFailedAttemptsThenSuccessAreTwoRawFailuresOneRawSuccessOneFinalSuccessAndTwoRetries() {
		upstream.stubFor(any(anyUrl()).inScenario("flap").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")).willSetStateTo("second"));
		upstream.stubFor(any(anyUrl()).inScenario("flap").whenScenarioStateIs("second")
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")).willSetStateTo("ok"));
		upstream.stubFor(any(anyUrl()).inScenario("flap").whenScenarioStateIs("ok")
			.willReturn(aResponse().withStatus(200).withBody("ok")));

		assertThat(this.inventory.item("1")).isEqualTo("ok");

		assertThat(delta(attempts().tag("code", "503").tag("class", "5xx").tag("breaker", "failure"))).isEqualTo(2);
		assertThat(delta(attempts().tag("code", "200").tag("class", "2xx"))).isEqualTo(1);
		assertThat(delta(calls().tag("outcome", "success"))).isEqualTo(1);
		assertThat(delta(calls().tag("outcome", "failure"))).isZero();
		assertThat(delta(this.registry.find("triage.retries").tag("client", "inventory"))).isEqualTo(2);
	}

	@Test
	void finalTransportFailureIsCountedWithItsKind() {
		// A reset rather than a read timeout: no test of this class may depend on how fast the machine is.
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		catchThrowable(() -> this.inventory.item("1"));

		assertThat(delta(attempts().tag("class", "transport").tag("code", "connection-reset"))).isEqualTo(2);
		assertThat(delta(calls().tag("outcome", "failure").tag("class", "transport").tag("code", "connection-reset")
			.tag("alert", "true"))).isEqualTo(1);
		assertThat(delta(this.registry.find("triage.retries").tag("client", "inventory"))).isEqualTo(1);
	}

	@Test
	void suppressedRetriesAreCountedWithTheirReason() {
		upstream.stubFor(any(urlPathMatching("/orders")).willReturn(aResponse().withStatus(500)));
		upstream.stubFor(any(urlPathMatching("/items/.*"))
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "3600")));

		catchThrowable(() -> this.inventory.order("{}"));
		catchThrowable(() -> this.inventory.item("1"));

		assertThat(delta(suppressed("not_idempotent"))).isEqualTo(1);
		assertThat(delta(suppressed("retry_after_too_long"))).isEqualTo(1);
		assertThat(delta(calls().tag("code", "429").tag("alert", "false"))).isEqualTo(1);
	}

	@Test
	void fallbackAndShortCircuitAreTheirOwnOutcomes() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(599)));

		assertThat(this.billing.invoices()).isEqualTo("degraded");
		this.breakers.circuitBreaker("inventory").transitionToForcedOpenState();
		catchThrowable(() -> this.inventory.item("1"));

		assertThat(delta(this.registry.find("triage.calls").tag("client", "billing").tag("outcome", "fallback")
			.tag("code", "599")
			.tag("class", "nonstandard"))).isEqualTo(1);
		assertThat(delta(calls().tag("outcome", "short_circuited").tag("code", "breaker_open")))
			.isEqualTo(1);
	}

	@Test
	void tenThousandDistinctPathsAndQueriesDoNotGrowTheNumberOfMeters() {
		upstream.stubFor(any(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(404)));
		upstream.stubFor(any(urlPathMatching("/search")).willReturn(aResponse().withStatus(200).withBody("[]")));
		for (int i = 0; i < 20; i++) {
			catchThrowable(() -> this.inventory.item("warm"));
			this.inventory.search("warm", "Bearer x");
		}
		// Only Triage's own meters: the JVM, HTTP client and pool binders may add meters of their own meanwhile.
		// Compared by id, so that a failure names the meters that appeared.
		java.util.function.Supplier<java.util.List<String>> triageMeters = () -> this.registry.getMeters()
			.stream()
			.map(Meter::getId)
			.filter((id) -> id.getName().startsWith("triage."))
			.map(MetricsTests::key)
			.sorted()
			.toList();
		java.util.List<String> meters = triageMeters.get();

		for (int i = 0; i < 5_000; i++) {
			String id = "item-" + i;
			catchThrowable(() -> this.inventory.item(id));
			this.inventory.search("query-" + i, "Bearer token-" + i);
		}

		assertThat(triageMeters.get()).containsExactlyElementsOf(meters);
		assertThat(this.registry.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
			.noneSatisfy((tag) -> assertThat(tag.getValue()).containsAnyOf("item-", "query-", "token-")));
	}

	/** Meters survive between tests, so every assertion is on the change a test made. */
	private final java.util.Map<String, Double> before = new java.util.HashMap<>();

	private void snapshot() {
		this.before.clear();
		this.registry.getMeters().forEach((meter) -> this.before.put(key(meter.getId()), value(meter)));
	}

	private double delta(Search search) {
		double now = 0;
		double then = 0;
		for (io.micrometer.core.instrument.Meter meter : search.meters()) {
			now += value(meter);
			then += this.before.getOrDefault(key(meter.getId()), 0.0);
		}
		return now - then;
	}

	private static String key(io.micrometer.core.instrument.Meter.Id id) {
		return id.getName() + id.getTags();
	}

	private static double value(io.micrometer.core.instrument.Meter meter) {
		if (meter instanceof io.micrometer.core.instrument.Counter counter) {
			return counter.count();
		}
		if (meter instanceof io.micrometer.core.instrument.Timer timer) {
			return timer.count();
		}
		return 0;
	}

	private Search attempts() {
		return this.registry.find("triage.attempts").tag("client", "inventory");
	}

	private Search calls() {
		return this.registry.find("triage.calls").tag("client", "inventory");
	}

	private Search suppressed(String reason) {
		return this.registry.find("triage.retries.suppressed").tag("client", "inventory").tag("reason", reason);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class BillingFallback {

		@Bean
		TriageFallback<BillingClient> billingFallback() {
			return (exception, response) -> new DegradedBilling();
		}

	}

}
