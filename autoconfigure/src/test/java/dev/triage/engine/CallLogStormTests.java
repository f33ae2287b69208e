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
package dev.triage.engine;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;

import dev.triage.CallOutcome;
import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The call log over the wire, with the default logging: a refusal storm is one transition line and one
 * rate-limited line (the window is an hour here, so the test cannot cross it), expected failures are rate
 * limited, the line carries the error type, the sanitized message and the fallback's type, and retried attempts
 * get their own line.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.call-log-window=1h", "logging.level.dev.triage.calls=INFO",
				"logging.level.dev.triage.attempts=INFO",
				"resilience4j.circuitbreaker.instances.billing.sliding-window-type=COUNT_BASED",
				"resilience4j.circuitbreaker.instances.billing.sliding-window-size=10",
				"resilience4j.circuitbreaker.instances.billing.minimum-number-of-calls=10",
				"resilience4j.circuitbreaker.instances.billing.wait-duration-in-open-state=1h",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.instances.inventory.sliding-window-size=100000",
				"triage.clients.billing.policies.503.max-attempts=1",
				"triage.clients.inventory.policies.503.max-attempts=2",
				"triage.clients.inventory.policies.503.backoff.initial=10ms" })
@Import({ RecordingObserverConfiguration.class, CallLogStormTests.Fallbacks.class })
@ExtendWith(OutputCaptureExtension.class)
class CallLogStormTests extends LoopbackUpstream {

	private static final String SECRET_BODY = "{\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded.\\r\\n"
			+ "Authorization: Bearer sk-live-0123456789abcdef, api_key=body-s3cr3t, retry via "
			+ "https://upstream.example/retry?token=url-s3cr3t&id=1 or mail ops@example.com\"}}";

	@Autowired
	RecordingObserver observer;

	@Autowired
	CircuitBreakerRegistry registry;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
		this.registry.circuitBreaker("billing").reset();
	}

	@Test
	void aRefusalStormIsOneTransitionLineAndOneCountedLine(CapturedOutput output) {
		upstream.stubFor(any(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(503)));
		for (int i = 0; i < 10; i++) {
			catchThrowable(() -> this.billing.invoices());
		}
		assertThat(this.registry.circuitBreaker("billing").getState().name()).isEqualTo("OPEN");

		for (int i = 0; i < 1000; i++) {
			assertThatExceptionOfType(UpstreamUnavailableException.class).isThrownBy(() -> this.billing.invoices());
		}

		List<String> lines = output.getAll().lines().toList();
		assertThat(lines.stream().filter((line) -> line.contains("triage breaker client=billing") && line.contains("to=OPEN")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").contains("from=CLOSED to=OPEN")
				.contains("failure_rate=100.0%").contains("calls=10"));
		assertThat(lines.stream().filter((line) -> line.contains("code=breaker_open")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").contains("triage call client=billing")
				.contains("class=refused").contains("count=1"));
		assertThat(this.observer.calls.stream().filter((call) -> call.outcome() == CallOutcome.SHORT_CIRCUITED))
			.as("every refusal is still told to the observers (the meters)")
			.hasSize(1000);
		assertThat(wireCount()).isEqualTo(10);
	}

	@Test
	void aTransitionLineShowsTheWindowOfTheStateTheBreakerLeft(CapturedOutput output) {
		upstream.stubFor(any(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(503)));
		for (int i = 0; i < 10; i++) {
			catchThrowable(() -> this.billing.invoices());
		}
		this.registry.circuitBreaker("billing").transitionToHalfOpenState();
		upstream.stubFor(any(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(200).withBody("[]")));
		for (int i = 0; i < 3; i++) {
			this.billing.invoices();
		}
		assertThat(this.registry.circuitBreaker("billing").getState().name()).isEqualTo("CLOSED");

		List<String> lines = output.getAll().lines().filter((line) -> line.contains("triage breaker client=billing")).toList();
		assertThat(lines).filteredOn((line) -> line.contains("from=OPEN to=HALF_OPEN"))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ").endsWith("failure_rate=100.0% slow_call_rate=0.0% calls=10"));
		assertThat(lines).filteredOn((line) -> line.contains("from=HALF_OPEN to=CLOSED"))
			.as("the three half-open calls that closed it, not the new closed window")
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ").endsWith("failure_rate=0.0% slow_call_rate=0.0% calls=3"));
	}

	@Test
	void anOutageIsOneWarnTransitionLineThoughItsProbesFail(CapturedOutput output) {
		upstream.stubFor(any(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(503)));
		for (int i = 0; i < 10; i++) {
			catchThrowable(() -> this.billing.invoices());
		}
		for (int cycle = 0; cycle < 3; cycle++) {
			this.registry.circuitBreaker("billing").transitionToHalfOpenState();
			for (int i = 0; i < 3; i++) {
				catchThrowable(() -> this.billing.invoices());
			}
			assertThat(this.registry.circuitBreaker("billing").getState().name()).isEqualTo("OPEN");
		}

		List<String> lines = output.getAll().lines().filter((line) -> line.contains("triage breaker client=billing")).toList();
		assertThat(lines).filteredOn((line) -> line.contains(" WARN "))
			.as("the breaker opening is the outage's one WARN line")
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("from=CLOSED to=OPEN"));
		assertThat(lines).filteredOn((line) -> line.contains("from=HALF_OPEN to=OPEN"))
			.as("opened again after its probes failed: the same outage")
			.hasSize(3)
			.allSatisfy((line) -> assertThat(line).contains(" INFO ").endsWith("failure_rate=100.0% slow_call_rate=0.0% calls=3"));
	}

	@Test
	void expectedFailuresAreOneInfoLinePerClientAndCode(CapturedOutput output) {
		upstream.stubFor(any(urlPathMatching("/invoices/missing-.*")).willReturn(aResponse().withStatus(404)));
		upstream.stubFor(any(urlPathMatching("/invoices/bad-.*")).willReturn(aResponse().withStatus(400)));
		for (int i = 0; i < 50; i++) {
			int n = i;
			assertThatExceptionOfType(UpstreamResponseException.class)
				.isThrownBy(() -> this.billing.invoice("missing-" + n));
		}
		catchThrowable(() -> this.billing.invoice("bad-1"));
		catchThrowable(() -> this.billing.invoice("bad-2"));

		List<String> lines = output.getAll().lines().filter((line) -> line.contains("triage call client=billing")).toList();
		assertThat(lines.stream().filter((line) -> line.contains("code=404")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ").contains("count=1"));
		assertThat(lines.stream().filter((line) -> line.contains("code=400"))).hasSize(1);
		assertThat(this.observer.calls).hasSize(52);
	}

	@Test
	void theLineSaysTheErrorTypeTheSanitizedMessageAndTheFallbacksTypeNeverASecret(CapturedOutput output) {
		upstream.stubFor(any(urlPathEqualTo("/profile")).willReturn(aResponse().withStatus(503)
			.withHeader("Content-Type", "application/json").withHeader("Set-Cookie", "session=cookie-s3cr3t")
			.withBody(SECRET_BODY)));

		String answer = this.inventory.profile("Bearer auth-s3cr3t", "session=cookie-s3cr3t");

		assertThat(answer).isEqualTo("cached profile");
		assertThat(output.getAll().lines().filter((line) -> line.contains("triage call client=inventory")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").contains("code=503")
				.contains("error_type=overloaded_error").contains("message=\"Overloaded. Authorization: ")
				.contains("https://upstream.example/retry?token=***&id=***").contains("attempts=2")
				.contains("fallback=String").contains("outcome=fallback"));
		assertThat(output.getAll()).doesNotContain("s3cr3t").doesNotContain("sk-live").doesNotContain("ops@example");
	}

	@Test
	void aRetriedAttemptGetsAnInfoLine(CapturedOutput output) {
		upstream.stubFor(any(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(503)));

		assertThat(this.inventory.item("42")).isEqualTo("cached-42");

		assertThat(output.getAll().lines().filter((line) -> line.contains("dev.triage.attempts")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ")
				.containsPattern("triage attempt client=inventory method=InventoryClient#item\\(String\\): "
						+ "attempt 1 of 2 failed \\(503\\), retrying in \\d+ms$"));
		assertThat(wireCount()).isEqualTo(2);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Fallbacks {

		@Bean
		TriageFallback<InventoryClient> cachedInventory() {
			return (exception, response) -> new CachedInventory();
		}

	}

	/** A fallback whose profile answer has a type of its own, as the call log names it. */
	static class CachedInventory implements InventoryClient {

		@Override
		public String item(String id) {
			return "cached-" + id;
		}

		@Override
		public feign.Response raw(String id) {
			throw new UnsupportedOperationException();
		}

		@Override
		public String search(String query, String authorization) {
			throw new UnsupportedOperationException();
		}

		@Override
		public String profile(String authorization, String cookie) {
			return "cached profile";
		}

		@Override
		public String order(String body) {
			throw new UnsupportedOperationException();
		}

		@Override
		public String order(String body, String idempotencyKey) {
			throw new UnsupportedOperationException();
		}

		@Override
		public String replace(String id, String body) {
			throw new UnsupportedOperationException();
		}

		@Override
		public String cancel(String id) {
			throw new UnsupportedOperationException();
		}

	}

}
