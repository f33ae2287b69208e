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
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import com.github.tomakehurst.wiremock.http.Fault;
import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Every default row of the policy table, through a real Feign client on Apache HttpClient 5, against a real
 * HTTP server on loopback: the number of requests that reached the wire is the row's {@code max-attempts}.
 * Breakers are disabled here (a huge minimum call count) so that counts are not cut short.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "triage.call-log-window=0",
				"spring.cloud.openfeign.client.config.inventory.read-timeout=1000",
				"spring.cloud.openfeign.client.config.inventory.connect-timeout=400",
				// The 5xx row's backoff (1s x2 -> 4s) shortened: where it applies, the count matters, not the wait.
				"triage.clients.inventory.policies.5xx.backoff.initial=1ms",
				"triage.clients.inventory.policies.5xx.backoff.max=1ms",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.instances.inventory.sliding-window-size=100000" })
@ExtendWith(OutputCaptureExtension.class)
class WireCountTests extends LoopbackUpstream {

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@ParameterizedTest(name = "GET answered {0} reaches the wire {1} time(s)")
	@CsvSource({ "304, 1", "400, 1", "401, 1", "404, 1", "408, 2", "429, 3", "498, 3", "499, 1", "500, 4", "501, 1",
			"502, 3", "503, 3", "504, 2", "505, 1", "599, 1", "520, 3", "530, 3", "460, 3" })
	void getIsAttemptedAsOftenAsTheRowSays(int status, int expectedAttempts) {
		// Retry-After: 0 is honored exactly (no backoff) by the rows that honor it, which keeps this fast.
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(status).withHeader("Retry-After", "0")
			.withBody("{\"error\":{\"type\":\"whatever\",\"message\":\"boom\"}}")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("42"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		UpstreamResponseException failure = (UpstreamResponseException) thrown;
		assertThat(failure.response().status()).isEqualTo(status);
		assertThat(failure.attempts()).isEqualTo(expectedAttempts);
		assertThat(wireCount())
			.isEqualTo(expectedAttempts);
	}

	@Test
	void aNonStandardStatusIsLoggedAtWarnOncePerClientAndCode(CapturedOutput output) {
		// Seed 001: an unknown status is recorded and "告警一次" (alerted once).
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(527).withHeader("Retry-After", "0")));
		for (int i = 0; i < 3; i++) {
			catchThrowable(() -> this.inventory.item("1"));
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(528).withHeader("Retry-After", "0")));
		catchThrowable(() -> this.inventory.item("1"));
		catchThrowable(() -> this.billing.invoices());

		String log = output.getAll();
		assertThat(occurrences(log, "client 'inventory' received non-standard HTTP status 527 for the first time"))
			.isEqualTo(1);
		assertThat(occurrences(log, "client 'inventory' received non-standard HTTP status 528 for the first time"))
			.isEqualTo(1);
		assertThat(occurrences(log, "client 'billing' received non-standard HTTP status 528 for the first time"))
			.isEqualTo(1);
		assertThat(log).containsPattern("WARN .*client 'inventory' received non-standard HTTP status 527");
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

	@Test
	void postAnswered503IsTriedOnceButAPostAnswered429IsRetried() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));

		Throwable thrown = catchThrowable(() -> this.inventory.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);

		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "0")));
		catchThrowable(() -> this.inventory.order("{}"));
		assertThat(wireCount()).as("a rate limiter rejects before doing any work").isEqualTo(3);
	}

	@Test
	void postAnswered500IsNotRetriedWhileGetIs() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")));

		catchThrowable(() -> this.inventory.order("{}"));
		assertThat(wireCount()).isEqualTo(1);

		upstream.resetRequests();
		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).isEqualTo(4);
	}

	@Test
	void retryAfterOneSecondIsWaitedOnA429() {
		upstream.stubFor(any(anyUrl()).inScenario("quota").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "1")).willSetStateTo("ok"));
		upstream.stubFor(any(anyUrl()).inScenario("quota").whenScenarioStateIs("ok")
			.willReturn(aResponse().withStatus(200).withBody("fine")));

		long start = System.nanoTime();
		String body = this.inventory.item("1");
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(body).isEqualTo("fine");
		assertThat(wireCount()).isEqualTo(2);
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(950));
	}

	@Test
	void callersGivenTheSameRetryAfterComeBackSpreadOverTheJitter() throws Exception {
		upstream.stubFor(any(anyUrl()).inScenario("crowd").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "1")));
		int callers = 20;
		java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
		java.util.concurrent.CountDownLatch firstAttempts = new java.util.concurrent.CountDownLatch(callers);
		try {
			java.util.List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
			for (int i = 0; i < callers; i++) {
				String id = "c" + i;
				results.add(pool.submit(() -> {
					firstAttempts.countDown();
					return this.inventory.item(id);
				}));
			}
			firstAttempts.await();
			// Once every caller has had its 429, the upstream answers; retries come at least 1s later.
			long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
			while (wireCount() < callers && System.nanoTime() < until) {
				Thread.sleep(5);
			}
			upstream.stubFor(any(anyUrl()).inScenario("crowd").whenScenarioStateIs("Started")
				.willReturn(aResponse().withStatus(200).withBody("ok")));
			for (java.util.concurrent.Future<String> result : results) {
				assertThat(result.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("ok");
			}
		}
		finally {
			pool.shutdownNow();
		}
		java.util.List<com.github.tomakehurst.wiremock.stubbing.ServeEvent> events = upstream.getAllServeEvents();
		java.util.Map<String, java.util.List<Long>> byCaller = new java.util.HashMap<>();
		for (com.github.tomakehurst.wiremock.stubbing.ServeEvent event : events) {
			byCaller.computeIfAbsent(event.getRequest().getUrl(), (url) -> new java.util.ArrayList<>())
				.add(event.getRequest().getLoggedDate().getTime());
		}
		java.util.List<Long> waits = new java.util.ArrayList<>();
		byCaller.values().forEach((times) -> {
			java.util.Collections.sort(times);
			assertThat(times).hasSize(2);
			waits.add(times.get(1) - times.get(0));
		});
		assertThat(waits).hasSize(callers);
		// Never earlier than asked, at most 1s + 50% jitter (plus scheduling slack), and not all together.
		assertThat(waits).allSatisfy((wait) -> assertThat(wait).isBetween(990L, 1_500L + 1_000L));
		assertThat(java.util.Collections.max(waits) - java.util.Collections.min(waits)).isGreaterThan(100L);
	}

	@Test
	void retryAfterOneSecondIsWaitedOnA503() {
		upstream.stubFor(any(anyUrl()).inScenario("flap").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")).willSetStateTo("ok"));
		upstream.stubFor(any(anyUrl()).inScenario("flap").whenScenarioStateIs("ok")
			.willReturn(aResponse().withStatus(200).withBody("back")));

		long start = System.nanoTime();
		assertThat(this.inventory.item("1")).isEqualTo("back");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(950));
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void retryAfterAsHttpDateIsHonored() {
		String inTwoSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now().plusSeconds(2));
		upstream.stubFor(any(anyUrl()).inScenario("date").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", inTwoSeconds)).willSetStateTo("ok"));
		upstream.stubFor(any(anyUrl()).inScenario("date").whenScenarioStateIs("ok")
			.willReturn(aResponse().withStatus(200).withBody("back")));

		long start = System.nanoTime();
		assertThat(this.inventory.item("1")).isEqualTo("back");
		// HTTP-dates have whole-second precision, so the wait is between 1 and 2 seconds.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void malformedRetryAfterFallsBackToTheBackoffAndStillRetries() {
		upstream.stubFor(any(anyUrl())
			.willReturn(aResponse().withStatus(500).withHeader("Retry-After", "soon, maybe")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().retryAfter()).isEmpty();
		assertThat(wireCount()).isEqualTo(4);
	}

	@Test
	void retryAfterAboveTheRowsMaximumFailsFastWithoutWaiting() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "3600")));

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().retryAfter()).contains(Duration.ofHours(1));
		assertThat(wireCount()).isEqualTo(1);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
	}

	@Test
	void aSuppressedRetryIsSaidInTheCallLog(CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "3600")));
		catchThrowable(() -> this.inventory.item("1"));
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
		catchThrowable(() -> this.inventory.order("{}"));

		assertThat(output).contains("code=429 attempts=1").contains("retry_suppressed=retry_after_too_long")
			.contains("code=500 attempts=1")
			.contains("retry_suppressed=not_idempotent");
	}

	@ParameterizedTest(name = "{0} with Retry-After: {1} fails fast")
	@CsvSource(delimiter = '|', value = { "500|99999999999999999999999", "503|31536001", "429|9999999999999999",
			"429|9223372036854775807", "503|Fri, 31 Dec 9999 23:59:59 GMT", "408|86400" })
	void retryAfterLongerThanAnyMaximumFailsFast(int status, String retryAfter, CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(status).withHeader("Retry-After", retryAfter)));

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(((UpstreamResponseException) thrown).response().retryAfter()).isPresent();
		assertThat(wireCount()).isEqualTo(1);
		assertThat(took).isLessThan(Duration.ofSeconds(5));
		assertThat(output).contains("retry_suppressed=retry_after_too_long");
	}

	@Test
	void connectionRefusedIsAttemptedOnce() throws Exception {
		int closedPort;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			closedPort = socket.getLocalPort();
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(307)
			.withHeader("Location", "http://127.0.0.1:" + closedPort + "/gone")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_REFUSED);
		assertThat(((UpstreamTransportException) thrown).attempts()).as("the 307's request reached the wire")
			.isEqualTo(1);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void readTimeoutOnGetIsRetriedOnceAndReportsTheConfiguredTimeout() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(2500)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(1000));
		assertThat(failure.attempts()).isEqualTo(2);
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void readTimeoutOnPostIsNeverRetriedBecauseItMayHaveExecuted() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(2500)));

		Throwable thrown = catchThrowable(() -> this.inventory.order("{\"amount\":10}"));

		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void readTimeoutOnPostWithIdempotencyKeyIsRetried() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(2500)));

		Throwable thrown = catchThrowable(() -> this.inventory.order("{\"amount\":10}", "order-7"));

		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(wireCount()).isEqualTo(2);
	}

	@ParameterizedTest(name = "{0} is a connection reset, retried once on GET")
	@CsvSource({ "CONNECTION_RESET_BY_PEER", "EMPTY_RESPONSE", "RANDOM_DATA_THEN_CLOSE" })
	void resetAndEmptyResponsesAreConnectionResets(Fault fault) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withFault(fault)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(wireCount()).isEqualTo(2);
	}

}
