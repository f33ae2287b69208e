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
import java.util.concurrent.TimeUnit;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.engine.Call;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * When the attempt's bound shuts a connection down while Apache HttpClient 5 holds it between two of its steps,
 * the client throws what it throws for a released connection ("Endpoint not acquired / already released", an
 * IllegalStateException; a NullPointerException), not an I/O error: under a storm of calls cut at their deadline
 * that reached the caller raw. It is the cut, and the caller gets {@link UpstreamTransportException}.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.upstream.inventory=http://127.0.0.1:9", "test.upstream.billing=http://127.0.0.1:9",
				"triage.clients.released.deadline=300ms" })
class ReleasedByTheCutTests {

	@Autowired
	TriageHttpServices triage;

	@Test
	void aClientThatFindsItsConnectionReleasedByTheCutEndsInTheTypedException() throws IOException {
		try (RawServer silent = new RawServer()) {
			silent.answer((out) -> Thread.sleep(10_000));
			// After the connection is made, before the request is sent: waits for the bound to fire, then fails as
			// HttpClient 5 does on a released endpoint.
			HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(
					AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
						.addExecInterceptorAfter(ChainElement.CONNECT.name(), "released", (request, scope, chain) -> {
							Call call = Call.innermost();
							long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
							while (call != null && !call.abort().fired() && System.nanoTime() < until) {
								sleep(5);
							}
							throw new IllegalStateException("Endpoint not acquired / already released");
						})
						.build());
			InventoryClient inventory = this.triage.createClient("released", InventoryClient.class,
					RestClient.builder().baseUrl(silent.url()).requestFactory(factory).build());

			Throwable thrown = catchThrowable(() -> inventory.item("1"));

			assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
			UpstreamTransportException failure = (UpstreamTransportException) thrown;
			assertThat(failure.failure()).isIn(TransportFailure.CONNECT_TIMEOUT, TransportFailure.READ_TIMEOUT);
			assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(300));
			assertThat(failure.getCause()).hasRootCauseInstanceOf(IllegalStateException.class);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
