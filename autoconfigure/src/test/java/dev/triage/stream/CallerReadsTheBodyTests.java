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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import dev.triage.TriageHttpServices;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.SpringVersion;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;

/**
 * A body the caller reads after the call (a Feign method returning the {@code feign.Response} of an event stream, a
 * service method returning an {@code InputStream}) ends the call (SPEC §7: "per-call final outcomes (user impact)",
 * "One log line per failed or degraded call"): an error event or a break-off in it makes the call a failure in
 * {@code triage.calls} and the call log, as when Triage reads the body itself; a body read to its end, a success.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "test.context=caller-reads-the-body")
@ExtendWith(OutputCaptureExtension.class)
class CallerReadsTheBodyTests extends LoopbackUpstream {

	static final String ERROR_STREAM = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
			+ "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n";

	interface Streams {

		@GetExchange("/items/{id}")
		InputStream item(@PathVariable("id") String id);

	}

	@Autowired
	RestClient.Builder restClients;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	MeterRegistry registry;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void anErrorEventInAFeignResponseTheCallerReadsMakesTheCallAFailure(CapturedOutput output) throws IOException {
		upstream.stubFor(get(urlPathEqualTo("/raw/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(ERROR_STREAM)));

		try (feign.Response response = this.inventory.raw("stream")) {
			assertThat(readAll(response.body().asInputStream())).isInstanceOf(RuntimeException.class);
		}

		assertThat(calls("inventory", "success")).isZero();
		assertThat(calls("inventory", "failure")).isEqualTo(1);
		assertThat(output.getOut()).contains("client=inventory").contains("overloaded_error");
	}

	@Test
	void anErrorEventInAnInputStreamTheCallerReadsMakesTheCallAFailure(CapturedOutput output) {
		upstream.stubFor(get(urlPathEqualTo("/items/stream")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody(ERROR_STREAM)));
		Streams streams = this.triage.createClient("streams", Streams.class,
				this.restClients.clone().baseUrl(upstream.baseUrl()).build());

		Throwable failure;
		try {
			failure = readAll(streams.item("stream"));
		}
		catch (RuntimeException ex) {
			// Spring Framework 6.2 reads an InputStream whole inside the call: the error event ends the call.
			failure = ex;
		}

		assertThat(failure).isNotNull();
		assertThat(calls("streams", "success")).isZero();
		assertThat(calls("streams", "failure")).isEqualTo(1);
		assertThat(output.getOut()).contains("client=streams").contains("overloaded_error");
	}

	@Test
	void anInputStreamThatBreaksOffMakesTheCallAFailureAndOneReadToItsEndASuccess() throws IOException {
		// Spring Framework 6.2's RestClient has no converter for an InputStream of any content type.
		assumeTrue(Integer.parseInt(SpringVersion.getVersion().split("\\.")[0]) >= 7,
				"a service method returning an InputStream (Spring Framework 7)");
		upstream.stubFor(get(urlPathEqualTo("/items/whole")).willReturn(aResponse().withStatus(200).withBody("whole")));
		try (RawServer cut = new RawServer()) {
			// The head and part of the body, then the connection ends: the caller has read some of it already.
			cut.answer((out) -> {
				RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
						+ "Content-Length: 1000\r\n\r\n" + "x".repeat(100));
				out.flush();
				Thread.sleep(200);
			});
			Streams cutStreams = this.triage.createClient("cut-streams", Streams.class,
					this.restClients.clone().baseUrl(cut.url()).build());

			InputStream body = cutStreams.item("cut");
			assertThat(readAll(body)).isInstanceOf(IOException.class);
			assertThat(cut.requests()).as("part of it was the caller's: not sent again").isEqualTo(1);
		}
		assertThat(calls("cut-streams", "success")).isZero();
		assertThat(calls("cut-streams", "failure")).isEqualTo(1);

		Streams streams = this.triage.createClient("whole-streams", Streams.class,
				this.restClients.clone().baseUrl(upstream.baseUrl()).build());
		assertThat(readAll(streams.item("whole"))).isNull();
		assertThat(calls("whole-streams", "success")).isEqualTo(1);
		assertThat(calls("whole-streams", "failure")).isZero();
	}

	private long calls(String client, String outcome) {
		return this.registry.find("triage.calls").tag("client", client).tag("outcome", outcome).timers().stream()
			.mapToLong(Timer::count)
			.sum();
	}

	/**
	 * Read a stream to its end as a caller would, and close it; return what reading it threw, {@code null} when
	 * nothing.
	 */
	private static Throwable readAll(InputStream in) {
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		byte[] buffer = new byte[16];
		try (in) {
			int n;
			while ((n = in.read(buffer)) != -1) {
				read.write(buffer, 0, n);
			}
			read.toString(StandardCharsets.UTF_8);
			return null;
		}
		catch (IOException | RuntimeException ex) {
			return ex;
		}
	}

}
