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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.Refusal;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamUnavailableException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * SPEC §6: an open breaker lets nothing reach the wire, also for a call it let through while it was closed that
 * then waited for a pooled connection. The pool's only connection is held (a response left open on the same
 * HttpClient), a call waits for it, the upstream's breaker opens meanwhile, the connection is given back: the
 * waiting call is refused {@code BREAKER_OPEN} and sends nothing.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.httpclient.max-connections=1",
				"spring.cloud.openfeign.httpclient.max-connections-per-route=1",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout=20000",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout-unit=milliseconds" })
class BreakerOpenedWhileLeasingTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.inventory", upstream::baseUrl);
		registry.add("test.upstream.billing", upstream::baseUrl);
	}

	@Autowired
	@Qualifier("dev.triage.support.InventoryClient")
	InventoryClient feignInventory;

	@Autowired
	@Qualifier("httpClient5")
	CloseableHttpClient feignHttpClient;

	@Autowired
	PoolingHttpClientConnectionManager feignPool;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	MeterRegistry meters;

	@AfterEach
	void closeBreaker() {
		this.breakers.circuitBreaker("inventory").reset();
	}

	@Test
	void aFeignCallWaitingForAConnectionIsRefusedWhenTheBreakerOpensMeanwhile() throws Exception {
		refusedAfterWaiting(this.feignHttpClient, this.feignPool, () -> this.feignInventory.item("waiting"));
	}

	@Test
	void anHttpServiceCallWaitingForAConnectionIsRefusedWhenTheBreakerOpensMeanwhile() throws Exception {
		PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(1)
			.setMaxConnPerRoute(1)
			.build();
		CloseableHttpClient client = AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
			.setConnectionManager(pool)
			.build();
		try (client) {
			HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(client);
			factory.setConnectionRequestTimeout(Duration.ofSeconds(20));
			InventoryClient inventory = this.triage.createClient("inventory", InventoryClient.class,
					RestClient.builder().baseUrl(upstream.baseUrl()).requestFactory(factory).build());
			refusedAfterWaiting(client, pool, () -> inventory.item("waiting"));
		}
	}

	private void refusedAfterWaiting(CloseableHttpClient httpClient, PoolingHttpClientConnectionManager pool,
			Supplier<String> call) throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/held")).willReturn(aResponse().withStatus(200).withBody("held")));
		upstream.stubFor(get(urlPathEqualTo("/items/waiting")).willReturn(aResponse().withStatus(200).withBody("ok")));
		double refusalsBefore = refusals();
		CompletableFuture<String> waiting;
		// The pool's only connection, held until the breaker has opened.
		try (ClassicHttpResponse held = httpClient.executeOpen(null, new HttpGet(upstream.baseUrl() + "/items/held"),
				null)) {
			assertThat(held.getCode()).isEqualTo(200);
			waiting = CompletableFuture.supplyAsync(call);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(pool.getTotalStats().getPending()).isEqualTo(1));
			this.breakers.circuitBreaker("inventory").transitionToOpenState();
		}

		Throwable thrown = catchCompletion(waiting);
		assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
		UpstreamUnavailableException refused = (UpstreamUnavailableException) thrown;
		assertThat(refused.refusal()).isEqualTo(Refusal.BREAKER_OPEN);
		assertThat(refused.attempts()).as("nothing reached the wire").isZero();
		assertThat(refused.getMessage()).contains("opened while the attempt waited for a connection");
		assertThat(upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount())
			.as("only the held request reached the upstream")
			.isEqualTo(1);
		assertThat(refusals() - refusalsBefore).as("the refusal is counted").isEqualTo(1);
	}

	private double refusals() {
		return this.meters.find("triage.refusals").tag("client", "inventory").tag("reason", "breaker_open").counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	private static Throwable catchCompletion(CompletableFuture<String> future) throws Exception {
		try {
			future.get(20, TimeUnit.SECONDS);
			return null;
		}
		catch (java.util.concurrent.ExecutionException ex) {
			return ex.getCause();
		}
	}

}
