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

package dev.triage.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.BillingClient;
import dev.triage.support.HttpServiceClients;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * Answers that arrive too slowly, break off, or are not HTTP at all, over real sockets. Billing has a 3s
 * deadline and a 2s read timeout; inventory has no deadline and a 500ms read timeout.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "triage.clients.billing.deadline=3s",
				"spring.cloud.openfeign.client.config.billing.read-timeout=2000",
				"spring.cloud.openfeign.client.config.inventory.read-timeout=500",
				"spring.cloud.openfeign.client.config.inventory.connect-timeout=500",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
@ExtendWith(OutputCaptureExtension.class)
class ReliabilityTests {

	static final RawServer server = start();

	@Autowired
	InventoryClient inventory;

	@Autowired
	BillingClient billing;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	Environment environment;

	static RawServer start() {
		try {
			return new RawServer();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	@DynamicPropertySource
	static void urls(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.inventory", server::url);
		registry.add("test.upstream.billing", server::url);
	}

	@AfterAll
	static void stop() throws Exception {
		server.close();
	}

	@Test
	void theDeadlineCutsABodyTrickledOneBytePerSecond() {
		server.answer((out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n");
			RawServer.trickle(out, "abcdefghijkl", 1_000);
		});
		assertCutAtTheDeadline();
	}

	@Test
	void theDeadlineCutsATrickledStatusLine() {
		server.answer((out) -> RawServer.trickle(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 1_000));
		assertCutAtTheDeadline();
	}

	@Test
	void theDeadlineCutsTrickledHeaders() {
		server.answer((out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\n");
			RawServer.trickle(out, "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nContent-Length: 2\r\n\r\nok", 1_000);
		});
		assertCutAtTheDeadline();
	}

	@Test
	void theDeadlineCutsABodyTheCallerReadsAfterACallMadeOnTheRestClientDirectly() {
		server.answer((out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n");
			RawServer.trickle(out, "abcdefghijkl", 1_000);
		});
		RestClient billing = HttpServiceClients.restClient(this.environment, "billing", server.url())
			.mutate()
			.apply(this.triage.forClient("billing"))
			.build();
		int failedBefore = this.breakers.circuitBreaker("billing").getMetrics().getNumberOfFailedCalls();
		long start = System.nanoTime();

		// Triage's part of the call is over when the status and headers are in; RestClient reads the body after.
		Throwable thrown = catchThrowable(() -> billing.get().uri("/invoices").retrieve().body(String.class));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).as("cut at the deadline, not read to its end in 12 s")
			.isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(took).isBetween(Duration.ofMillis(2_900), Duration.ofMillis(6_000));
		assertThat(this.breakers.circuitBreaker("billing").getMetrics().getNumberOfFailedCalls())
			.as("the attempt recorded as a read timeout")
			.isEqualTo(failedBefore + 1);
	}

	private void assertCutAtTheDeadline() {
		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.billing.invoices());
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofSeconds(3));
		assertThat(failure.getCause()).as("says what cut it, not 'Socket closed'")
			.hasMessage("the call's deadline of 3000ms passed while the answer was awaited");
		assertThat(took).isBetween(Duration.ofMillis(2_900), Duration.ofMillis(3_900));
	}

	@Test
	void withoutADeadlineATrickledAnswerIsCutAfterThreeReadTimeoutsAndRetriedLikeAReadTimeout() {
		server.answer((out) -> {
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n");
			RawServer.trickle(out, "x".repeat(30), 300);
		});
		int before = server.requests();
		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).as("connect 500ms + 3 x read 500ms").isEqualTo(Duration.ofMillis(2_000));
		assertThat(failure.getCause())
			.hasMessage("the attempt's bound of 2000ms (connect-timeout + 3 x read-timeout) passed while the answer was awaited");
		assertThat(server.requests() - before).as("the read-timeout row retries a GET once").isEqualTo(2);
		assertThat(took).isBetween(Duration.ofMillis(3_900), Duration.ofMillis(6_000));
	}

	@Test
	void aSuccessWhoseBodyBreaksOffIsAConnectionResetRecordedAndRetried(CapturedOutput output) {
		server.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789"));
		int before = server.requests();
		float failedBefore = this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls();

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(server.requests() - before).isEqualTo(2);
		assertThat(this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls() - failedBefore)
			.isEqualTo(2);
		assertThat(output).contains("class=transport code=connection-reset").doesNotContain("class=local");
	}

	@Test
	void aPostWhoseBodyBreaksOffIsNotRetried() {
		server.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789"));
		int before = server.requests();

		Throwable thrown = catchThrowable(() -> this.inventory.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(server.requests() - before).isEqualTo(1);
	}

	@Test
	void anErrorBodyThatBreaksOffKeepsWhatArrivedAndSaysItIsTruncated() {
		server.answer((out) -> RawServer.write(out,
				"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"type\":\"gone\",\"de"));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		var response = ((UpstreamResponseException) thrown).response();
		assertThat(response.bodyAsString()).isEqualTo("{\"type\":\"gone\",\"de");
		assertThat(response.bodyTruncated()).isTrue();
		assertThat(response.errorType()).as("the type came before the cut").isEqualTo("gone");
	}

	@Test
	void anErrorTypeEarlyInABodyOverTheCapStillClassifies() {
		String body = "{\"type\":\"overloaded\",\"detail\":\"" + "x".repeat(100_000) + "\"}";
		server.answer((out) -> RawServer.write(out, "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
				+ "Content-Length: " + body.length() + "\r\n\r\n" + body));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		var response = ((UpstreamResponseException) thrown).response();
		assertThat(response.bodyTruncated()).isTrue();
		assertThat(response.body()).hasSize(64 * 1024);
		assertThat(response.errorType()).isEqualTo("overloaded");
	}

	@Test
	void aReplyThatIsNotHttpThenCloseIsNoAnswerAtAll() {
		// Apache HttpClient 5 skips lines that are not a status line and, when the peer then closes, reports
		// NoHttpResponseException: by type the same as a peer that closed without answering. Triage classifies
		// by type, so both are connection-reset: a GET is retried once, a POST is not.
		server.answer((out) -> RawServer.write(out, "SSH-2.0-OpenSSH_9.2\r\nthis is not http at all\r\n"));
		int before = server.requests();

		Throwable get = catchThrowable(() -> this.inventory.item("1"));
		Throwable post = catchThrowable(() -> this.inventory.order("{}"));

		assertThat(((UpstreamTransportException) get).failure()).as(String.valueOf(get.getCause()))
			.isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(((UpstreamTransportException) post).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(server.requests() - before).isEqualTo(2 + 1);
	}

	@Test
	void aKeepAliveConnectionTheServerClosedWhileIdleIsNotUsedForTheNextRequest() throws Exception {
		// The server answers as if it kept the connection, then closes it: the pooled connection is stale.
		server.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
		int before = server.requests();
		int failedBefore = this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls();

		for (int i = 0; i < 3; i++) {
			assertThat(this.inventory.order("{}")).isEqualTo("ok");
			Thread.sleep(1_300);
		}

		assertThat(server.requests() - before).isEqualTo(3);
		assertThat(this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls()).isEqualTo(failedBefore);
	}

}
