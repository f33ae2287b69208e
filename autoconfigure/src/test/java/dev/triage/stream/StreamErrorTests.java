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
package dev.triage.stream;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.UpstreamResponseException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Errors inside a 200 stream (SPEC §4.1): server-sent events and NDJSON are watched as they are read; an error event
 * ends the call with {@code UpstreamResponseException} (status 200, the event's error type, the event as body),
 * is recorded in the breaker by its error-type rule or the {@code stream-error} row, and is never retried.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.billing.error-types.overloaded_error.breaker=ignore",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class StreamErrorTests extends LoopbackUpstream {

	static final String SSE_WITH_ERROR = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
			+ "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"Hel\"}}\n\n"
			+ "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";

	static final String NDJSON_WITH_ERROR = "{\"type\":\"content_block_delta\",\"text\":\"Hel\"}\n"
			+ "{\"error\":{\"code\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n";

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void anErrorEventInsideAnSseStreamEndsTheCallTypedAndIsNotRetried() {
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(SSE_WITH_ERROR)));
		long failedBefore = failed("inventory");

		Throwable thrown = catchThrowable(() -> this.inventory.item("stream"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		UpstreamResponseException failure = (UpstreamResponseException) thrown;
		assertThat(failure.response().status()).isEqualTo(200);
		assertThat(failure.response().errorType()).isEqualTo("overloaded_error");
		assertThat(failure.response().bodyAsString()).contains("overloaded_error").doesNotContain("message_start");
		assertThat(wireCount()).as("part of the answer was delivered: never retried").isEqualTo(1);
		assertThat(failed("inventory") - failedBefore).as("the stream-error row: a breaker failure").isEqualTo(1);
	}

	@Test
	void anNdjsonErrorLineIsAnErrorEventAndItsErrorTypeRuleDecidesTheBreaker() {
		upstream.stubFor(get(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "application/x-ndjson")
			.withBody(NDJSON_WITH_ERROR)));
		long failedBefore = failed("billing");

		Throwable thrown = catchThrowable(() -> this.billing.invoices());

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().errorType()).isEqualTo("overloaded_error");
		assertThat(wireCount()).isEqualTo(1);
		assertThat(failed("billing") - failedBefore).as("billing's overloaded_error rule: breaker ignore").isZero();
	}

	@Test
	void aStreamWhoseEventsOnlyCarryATypeIsAnOrdinaryAnswer() {
		String events = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
				+ "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(events)));

		assertThat(this.inventory.item("stream")).isEqualTo(events);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void anErrorEventLongerThanTheBodyCapIsAnErrorAllTheSame() {
		String message = "x".repeat(100_000);
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody("event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
					+ "event: error\ndata: {\"error\":{\"type\":\"overloaded_error\",\"message\":\"" + message
					+ "\"}}\n\n")));
		upstream.stubFor(get(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "application/x-ndjson")
			.withBody("{\"error\":{\"code\":\"overloaded_error\",\"message\":\"" + message + "\"}}\n")));

		Throwable sse = catchThrowable(() -> this.inventory.item("stream"));
		Throwable ndjson = catchThrowable(() -> this.billing.invoices());

		for (Throwable thrown : new Throwable[] { sse, ndjson }) {
			assertThat(thrown).as("an error event of 100 KB, over the 64 KB cap").isInstanceOf(UpstreamResponseException.class);
			assertThat(((UpstreamResponseException) thrown).response().errorType()).isEqualTo("overloaded_error");
			// SPEC §2: the body capped at triage.max-body-bytes, with a bodyTruncated() flag.
			assertThat(((UpstreamResponseException) thrown).response().body()).hasSizeLessThanOrEqualTo(64 * 1024);
			assertThat(((UpstreamResponseException) thrown).response().bodyTruncated()).isTrue();
		}
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void anOrdinaryEventLongerThanTheBodyCapIsHandedOverWhole() {
		String events = "event: message_start\ndata: {\"type\":\"message_start\",\"text\":\"" + "y".repeat(100_000)
				+ "\"}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(events)));

		assertThat(this.inventory.item("stream")).isEqualTo(events);
	}

	@Test
	void anSseStreamWhoseLinesEndInALoneCarriageReturnIsWatchedToo() {
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody("event: message_start\rdata: {\"type\":\"message_start\"}\r\r"
					+ "event: error\rdata: {\"error\":{\"type\":\"overloaded_error\"}}\r\r")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("stream"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().errorType()).isEqualTo("overloaded_error");
	}

	private long failed(String client) {
		return this.breakers.circuitBreaker(client).getMetrics().getNumberOfFailedCalls();
	}

}
