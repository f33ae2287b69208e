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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.RestClient;

/**
 * An error event that arrives in the same read as the events before it (SPEC §4.1: the error "ends the stream for
 * the caller, after the events before it"): a caller reading the stream gets those events, then the exception;
 * what came after the error event is never handed over. (A context of its own: one cached for another class with
 * the same settings would hold that class's upstream port.)
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "test.context=events-before-an-error")
class EventsBeforeAnErrorTests extends LoopbackUpstream {

	static final String BEFORE = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
			+ "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"Hel\"}}\n\n";

	static final String STREAM = BEFORE
			+ "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n"
			+ "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

	@Autowired
	RestClient.Builder restClients;

	@Autowired
	TriageHttpServices triage;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void aFeignCallerReadingTheResponseGetsTheEventsBeforeTheErrorThenTheError() throws IOException {
		upstream.stubFor(get(urlPathEqualTo("/raw/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(STREAM)));

		try (feign.Response response = this.inventory.raw("stream")) {
			Read read = readAll(response.body().asInputStream());

			assertThat(read.text()).isEqualTo(BEFORE);
			assertThat(read.failure()).isInstanceOf(UpstreamResponseException.class);
			assertThat(((UpstreamResponseException) read.failure()).response().errorType()).isEqualTo("overloaded_error");
		}
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void aRestClientCallerReadingTheBodyGetsTheEventsBeforeTheErrorThenTheError() {
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(STREAM)));
		RestClient client = this.restClients.clone()
			.baseUrl(upstream.baseUrl())
			.apply(this.triage.forClient("events"))
			.build();

		Read read = client.get().uri("/items/stream").exchange((request, response) -> readAll(response.getBody()));

		assertThat(read.text()).isEqualTo(BEFORE);
		assertThat(read.failure()).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) read.failure()).response().status()).isEqualTo(200);
		assertThat(wireCount()).isEqualTo(1);
	}

	/**
	 * Read a stream as a caller would, one small read at a time, until it ends or fails.
	 */
	private static Read readAll(InputStream in) throws IOException {
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		byte[] buffer = new byte[16];
		try {
			int n;
			while ((n = in.read(buffer)) != -1) {
				read.write(buffer, 0, n);
			}
			return new Read(read.toString(StandardCharsets.UTF_8), null);
		}
		catch (RuntimeException ex) {
			return new Read(read.toString(StandardCharsets.UTF_8), ex);
		}
	}

	private record Read(String text, RuntimeException failure) {
	}

}
