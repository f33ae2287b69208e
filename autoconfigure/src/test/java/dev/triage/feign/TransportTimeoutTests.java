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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.support.BillingClient;
import dev.triage.support.FullBacklog;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Pool-wait and connect timeouts produced for real: a connection pool of one held by a slow call, and a
 * listening socket whose accept queue is full so that new connections are never completed.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.httpclient.max-connections=1",
				"spring.cloud.openfeign.httpclient.max-connections-per-route=1",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout=300",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout-unit=milliseconds",
				"spring.cloud.openfeign.client.config.billing.connect-timeout=300",
				"spring.cloud.openfeign.client.config.inventory.read-timeout=5000" })
class TransportTimeoutTests {

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
	InventoryClient inventory;

	@Autowired
	BillingClient billing;

	@Test
	void connectTimeoutIsAttemptedOnceAndReportsTheConfiguredValue() {
		Throwable thrown = catchThrowable(() -> this.billing.invoices());

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(300));
		assertThat(failure.attempts()).as("no connection, nothing reached the wire").isZero();
	}

	@Test
	void poolExhaustionIsAPoolTimeoutThatNeverReachesTheWire() throws Exception {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("slow").withFixedDelay(1500)));
		CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> this.inventory.item("held"));
		Thread.sleep(300);

		Throwable thrown = catchThrowable(() -> this.inventory.item("starved"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(300));
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(holder.get(5, TimeUnit.SECONDS)).isEqualTo("slow");
		assertThat(upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount()).isEqualTo(1);
	}

}
