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

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/**
 * A 2xx whose body breaks off after part of it arrived (a whole chunk, then a cut one, then the connection closes):
 * a {@code CONNECTION_RESET} attempt, retried as its row says (a GET: 2 attempts), ending in
 * {@code UpstreamTransportException}, for a Feign client and an HTTP service client alike.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=body-breaks-off", "test.upstream.inventory=http://127.0.0.1:9",
				"test.upstream.billing=http://127.0.0.1:9", "triage.policies.connection-reset.backoff.initial=1ms" })
class BodyBreaksOffTests {

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	MeterRegistry registry;

	@BeforeAll
	static void breakingOff() throws IOException {
		upstream = new RawServer();
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "text/event-stream", "application/json", "application/x-ndjson" })
	void aBodyThatBreaksOffIsAResetAttemptRetriedAsItsRowSays(String contentType) throws Exception {
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: " + contentType
				+ "\r\nTransfer-Encoding: chunked\r\n\r\n9\r\ndata: a\n\n\r\n40\r\n" + "x".repeat(18)));
		InventoryClient inventory = this.triage.createClient("breaks-off", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).build());
		int before = upstream.requests();

		Throwable thrown = CompletableFuture.supplyAsync(() -> {
			try {
				inventory.item("1");
				return null;
			}
			catch (Throwable ex) {
				return ex;
			}
		}).get(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(2);
		assertThat(upstream.requests() - before).isEqualTo(2);
	}

	@Test
	void aFeignResponseOfAStreamThatBreaksOffWhileFeignBuffersItEndsInTheTypedException() {
		// Feign reads a feign.Response of at most 8 KiB with a Content-Length inside the call: the break-off reached
		// the caller as Feign's own FeignException around Triage's internal read failure (SPEC §6: a transport
		// failure throws UpstreamTransportException).
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
				+ "Content-Length: 1000\r\n\r\ndata: a\n\n" + "x".repeat(18)));
		try (ConfigurableApplicationContext feign = new SpringApplicationBuilder(TestApplication.class)
			.web(WebApplicationType.NONE)
			.properties("test.upstream.inventory=" + upstream.url(), "test.upstream.billing=" + upstream.url())
			.run()) {
			InventoryClient inventory = feign.getBean(InventoryClient.class);

			Throwable thrown = catchThrowable(() -> inventory.raw("1").close());

			assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
			assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
			assertThat(feign.getBean(MeterRegistry.class).get("triage.calls").tag("client", "inventory")
				.tag("outcome", "failure").tag("code", "connection-reset").timer().count()).isEqualTo(1);
		}
	}

	@Test
	void aRestClientCallWhoseBodyBreaksOffEndsInTheTypedExceptionAndIsReportedAsAFailure() {
		// A call made on a forClient RestClient directly reads its body after Triage's part of the call: not
		// retried, but the caller gets UpstreamTransportException and the call is reported as what it was.
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
				+ "Content-Length: 1000\r\n\r\n" + "x".repeat(18)));
		RestClient client = RestClient.builder().baseUrl(upstream.url()).apply(this.triage.forClient("direct")).build();
		int before = upstream.requests();

		Throwable thrown = catchThrowable(() -> client.get().uri("/items/1").retrieve().body(String.class));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(1);
		assertThat(upstream.requests() - before).isEqualTo(1);
		assertThat(this.registry.find("triage.calls").tag("client", "direct").tag("outcome", "success").timer())
			.isNull();
		assertThat(this.registry.get("triage.calls").tag("client", "direct").tag("outcome", "failure")
			.tag("code", "connection-reset").timer().count()).isEqualTo(1);
	}

	@Test
	void aRestClientCallWhoseBodyArrivesIsReportedAsASuccessOnceItHas() {
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
				+ "Content-Length: 2\r\n\r\nok"));
		RestClient client = RestClient.builder().baseUrl(upstream.url()).apply(this.triage.forClient("whole")).build();

		String body = client.get().uri("/items/1").retrieve().body(String.class);

		assertThat(body).isEqualTo("ok");
		assertThat(this.registry.get("triage.calls").tag("client", "whole").tag("outcome", "success").timer().count())
			.isEqualTo(1);
	}

}
