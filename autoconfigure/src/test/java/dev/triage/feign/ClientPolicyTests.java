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

package dev.triage.feign;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.Arrays;

import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Per-client YAML overrides, error-type rules, the body cap and redaction, through real Feign calls.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.inventory.policies.503.max-attempts=1",
				"triage.error-types.invalid_request_error.max-attempts=1",
				"triage.error-types.invalid_request_error.breaker=success",
				"triage.clients.billing.deadline=1500ms", "triage.max-body-bytes=1KB",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class ClientPolicyTests extends LoopbackUpstream {

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void clientOverrideAppliesToThatClientOnlyAndHttpClientDoesNotRetryBehindIt() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));

		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).as("inventory: 503 max-attempts 1").isEqualTo(1);

		upstream.resetRequests();
		catchThrowable(() -> this.billing.invoices());
		assertThat(wireCount()).as("billing keeps the default 503 row").isEqualTo(3);
	}

	@Test
	void errorTypeInTheBodyDecidesBeforeTheStatus() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"overloaded_error\"}}")));

		Throwable invalid = catchThrowable(() -> this.billing.invoices());

		assertThat(((UpstreamResponseException) invalid).response().errorType()).isEqualTo("invalid_request_error");
		assertThat(wireCount()).isEqualTo(1);

		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")
			.withBody("{\"error\":{\"type\":\"overloaded_error\",\"message\":\"invalid_request_error\"}}")));

		Throwable overloaded = catchThrowable(() -> this.billing.invoices());

		assertThat(((UpstreamResponseException) overloaded).response().errorType()).isEqualTo("overloaded_error");
		assertThat(wireCount()).as("no rule for overloaded_error: the 5xx row applies").isEqualTo(4);
	}

	@Test
	void hugeErrorBodyIsCappedAndFlaggedTruncated() {
		byte[] fiftyMegabytes = new byte[50 * 1024 * 1024];
		Arrays.fill(fiftyMegabytes, (byte) 'x');
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404).withBody(fiftyMegabytes)));

		// inventory: no deadline, so a slow start of the 50 MB answer cannot turn into a read timeout
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		OriginalResponse response = ((UpstreamResponseException) thrown).response();
		assertThat(response.body()).hasSize(1024);
		assertThat(response.bodyTruncated()).isTrue();
		assertThat(response.bodyAsString()).startsWith("xxxx");
	}

	@Test
	void aMethodReturningTheRawResponseGetsItWholeAndTheBreakerStillCountsIt() throws Exception {
		byte[] fiveKilobytes = new byte[5 * 1024];
		Arrays.fill(fiveKilobytes, (byte) 'y');
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500).withBody(fiveKilobytes)));
		CircuitBreaker breaker = this.breakers.circuitBreaker("inventory");
		long failedBefore = breaker.getMetrics().getNumberOfFailedCalls();

		try (feign.Response response = this.inventory.raw("1")) {
			assertThat(response.status()).isEqualTo(500);
			assertThat(response.body().asInputStream().readAllBytes()).hasSize(5 * 1024);
		}

		assertThat(wireCount()).isEqualTo(1);
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(failedBefore + 1);
	}

	@Test
	void smallBodyIsKeptWholeWithItsHeadersAndReason() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404).withHeader("X-Trace", "t-1")
			.withHeader("Content-Type", "text/plain; charset=ISO-8859-1")
			.withBody("caf\u00e9".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))));

		OriginalResponse response = ((UpstreamResponseException) catchThrowable(() -> this.billing.invoices()))
			.response();

		assertThat(response.bodyTruncated()).isFalse();
		assertThat(response.bodyAsString()).isEqualTo("caf\u00e9");
		assertThat(response.headers().get("x-trace")).containsExactly("t-1");
		assertThat(response.client()).isEqualTo("billing");
		assertThat(response.methodKey()).isEqualTo("BillingClient#invoices()");
		assertThat(response.httpMethod()).isEqualTo("GET");
		assertThat(response.attempts()).isEqualTo(1);
		assertThat(response.errorType()).isNull();
	}

	@Test
	void sensitiveValuesNeverReachTheOriginalResponseOrTheMessage() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(401).withHeader("Set-Cookie", "session=s3cr3t")
			.withHeader("X-Api-Key", "key-s3cr3t")
			.withHeader("WWW-Authenticate", "Bearer")));

		Throwable thrown = catchThrowable(() -> this.inventory.search("token-s3cr3t", "Bearer auth-s3cr3t"));

		OriginalResponse response = ((UpstreamResponseException) thrown).response();
		assertThat(response.headers().get("set-cookie")).containsExactly("[redacted]");
		assertThat(response.headers().get("x-api-key")).containsExactly("[redacted]");
		assertThat(response.headers().get("www-authenticate")).containsExactly("Bearer");
		assertThat(response.url()).endsWith("/search?q=***");
		assertThat(thrown.getMessage()).doesNotContain("s3cr3t").contains("HTTP 401").contains("InventoryClient#search");
		assertThat(response.toString()).doesNotContain("s3cr3t");
	}

	@Test
	void anAttemptMayNotReadLongerThanWhatIsLeftOfTheDeadline() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(4000)));

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.billing.invoices());
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).isLessThanOrEqualTo(Duration.ofMillis(1500));
		assertThat(wireCount()).as("no time left for the read-timeout retry").isEqualTo(1);
		assertThat(took).isLessThan(Duration.ofMillis(3000));
	}

	@Test
	void noRetryWhoseWaitWouldCrossTheClientDeadline() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2")));

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.billing.invoices());

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
	}

}
