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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * SPEC §6: {@code attempts()} is 0 when nothing reached the wire. A refused connection sent nothing, whatever the
 * connection-refused row made of it (here two tries), for a Feign client and an HTTP service client alike.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.policies.connection-refused.max-attempts=2",
				"triage.policies.connection-refused.backoff.initial=1ms" })
class NothingSentTests {

	static final String CLOSED = closedPort();

	@Autowired
	InventoryClient inventory;

	@Autowired
	TriageHttpServices triage;

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.inventory", () -> CLOSED);
		registry.add("test.upstream.billing", () -> CLOSED);
	}

	@Test
	void aRefusedConnectionReachedNoWireAfterTwoTries() {
		InventoryClient service = this.triage.createClient("refused-service", InventoryClient.class,
				RestClient.builder().baseUrl(CLOSED).build());

		for (Runnable call : new Runnable[] { () -> this.inventory.item("1"), () -> service.item("1") }) {
			Throwable thrown = catchThrowable(call::run);

			assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
			UpstreamTransportException failure = (UpstreamTransportException) thrown;
			assertThat(failure.failure()).isEqualTo(TransportFailure.CONNECTION_REFUSED);
			assertThat(failure.attempts()).isZero();
			assertThat(failure.getMessage()).contains("after 0 attempts");
		}
	}

	private static String closedPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return "http://127.0.0.1:" + socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
