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

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.support.BillingClient;
import dev.triage.support.FullBacklog;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A call whose deadline passes while it is still connecting sent nothing: it ends at its deadline as a
 * {@code connect-timeout} (reporting the deadline), not as a {@code read-timeout} that may have executed. The
 * upstream is a listening socket whose accept queue is full, so that new connections are never completed; the
 * connect timeout (20 s) is far longer than the deadline (400 ms).
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.billing.connect-timeout=20000",
				"triage.clients.billing.deadline=400ms" })
class DeadlineWhileConnectingTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	static FullBacklog fullBacklog;

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) throws IOException {
		fullBacklog = FullBacklog.open();
		registry.add("test.upstream.inventory", upstream::baseUrl);
		registry.add("test.upstream.billing", fullBacklog::url);
	}

	@AfterAll
	static void close() throws IOException {
		fullBacklog.close();
	}

	@Autowired
	@Qualifier("dev.triage.support.BillingClient")
	BillingClient billing;

	@Autowired
	@Qualifier("httpBilling")
	BillingClient httpBilling;

	@Test
	void aFeignCallWhoseDeadlinePassesWhileItConnectsSentNothing() {
		endsWhileConnecting(this.billing);
	}

	@Test
	void anHttpServiceCallWhoseDeadlinePassesWhileItConnectsSentNothing() {
		endsWhileConnecting(this.httpBilling);
	}

	private void endsWhileConnecting(BillingClient client) {
		long start = System.nanoTime();
		Throwable thrown = catchThrowable(client::invoices);
		long waited = System.nanoTime() - start;

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as("nothing was sent: not a read timeout").isEqualTo(TransportFailure.CONNECT_TIMEOUT);
		assertThat(failure.configuredTimeout()).as("the timeout that fired is the deadline")
			.isEqualTo(Duration.ofMillis(400));
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(Duration.ofNanos(waited)).as("ended at the deadline, not at the connect timeout")
			.isGreaterThanOrEqualTo(Duration.ofMillis(380))
			.isLessThan(Duration.ofSeconds(10));
	}

}
