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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.AttemptAbort;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
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
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A call's deadline holds while the call waits for a pooled connection: the only connection of the pool is held
 * (a response left open on the same HttpClient), the pool's own wait is 20 seconds, the client's deadline 500 ms
 * (700 ms for billing, whose attempt bound, 400 ms, passes first).
 * The call ends at its deadline as a {@code pool-timeout} that reports the deadline, reaches no wire and does not
 * count against the upstream's breaker; it does not wait on and send its request once the connection is free.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.httpclient.max-connections=1",
				"spring.cloud.openfeign.httpclient.max-connections-per-route=1",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout=20000",
				"spring.cloud.openfeign.httpclient.hc5.connection-request-timeout-unit=milliseconds",
				"triage.clients.inventory.deadline=500ms",
				"spring.cloud.openfeign.client.config.billing.connect-timeout=100",
				"spring.cloud.openfeign.client.config.billing.read-timeout=100",
				"triage.clients.billing.deadline=700ms" })
class DeadlineWhileLeasingTests {

	static final Duration POOL_WAIT = Duration.ofSeconds(20);

	static final Duration DEADLINE = Duration.ofMillis(500);

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
	@Qualifier("dev.triage.support.BillingClient")
	BillingClient feignBilling;

	@Autowired
	@Qualifier("httpClient5")
	CloseableHttpClient feignHttpClient;

	@Autowired
	PoolingHttpClientConnectionManager feignPool;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Test
	void aFeignCallEndsAtItsDeadlineWhileItsPoolIsHeld() throws Exception {
		starved(this.feignHttpClient, this.feignInventory);
	}

	@Test
	void aFeignCallEndsAtItsDeadlineAfterItsAttemptBoundWhileItsPoolIsHeld() throws Exception {
		// billing's attempt bound (connect + 3 x read = 400 ms) passes first: it holds no connection to shut; the
		// deadline still ends the wait.
		starved(this.feignHttpClient, "billing", Duration.ofMillis(700), "/invoices/held",
				() -> this.feignBilling.invoice("starved"));
	}

	@Test
	void anHttpServiceCallEndsAtItsDeadlineWhileItsPoolIsHeld() throws Exception {
		CloseableHttpClient client = AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
			.setConnectionManager(
					PoolingHttpClientConnectionManagerBuilder.create().setMaxConnTotal(1).setMaxConnPerRoute(1).build())
			.build();
		try (client) {
			HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(client);
			factory.setConnectionRequestTimeout(POOL_WAIT);
			InventoryClient inventory = this.triage.createClient("inventory", InventoryClient.class,
					RestClient.builder().baseUrl(upstream.baseUrl()).requestFactory(factory).build());
			starved(client, inventory);
		}
	}

	@Test
	void aConnectionFreedWithTooLittleOfTheDeadlineLeftSendsNothing() throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/held")).willReturn(aResponse().withStatus(200).withBody("held")));
		upstream.stubFor(get(urlPathEqualTo("/items/warm")).willReturn(aResponse().withStatus(200).withBody("warm")));
		// A call first, so that the starved one reaches the pool within a millisecond of its start.
		assertThat(this.feignInventory.item("warm")).isEqualTo("warm");
		CircuitBreaker.Metrics breaker = this.breakers.circuitBreaker("inventory").getMetrics();
		int failedBefore = breaker.getNumberOfFailedCalls();
		ClassicHttpResponse held = this.feignHttpClient.executeOpen(null,
				new HttpGet(upstream.baseUrl() + "/items/held"), null);
		assertThat(held.getCode()).isEqualTo(200);
		AtomicLong leftAtRelease = new AtomicLong();
		Thread releaser = new Thread(() -> {
			// The starved call started before it waits for the pool: its deadline passes at most DEADLINE after
			// the moment its wait is seen. The connection is freed 9 ms before then, or later (a stalled machine):
			// never with 10 ms of the deadline left. (With the call's first millisecond spent before its wait, a
			// few ms are left: without the check at sending, the request goes out.)
			while (this.feignPool.getTotalStats().getPending() == 0) {
				LockSupport.parkNanos(100_000);
			}
			long deadlineAtTheLatest = System.nanoTime() + DEADLINE.toNanos();
			long freeAt = deadlineAtTheLatest - Duration.ofMillis(9).toNanos();
			for (long now = System.nanoTime(); now < freeAt; now = System.nanoTime()) {
				LockSupport.parkNanos(freeAt - now);
			}
			try (held) {
				leftAtRelease.set(deadlineAtTheLatest - System.nanoTime());
				EntityUtils.consume(held.getEntity());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
		releaser.start();
		Throwable thrown = catchThrowable(() -> this.feignInventory.item("starved"));
		releaser.join(10_000);

		assertThat(leftAtRelease.get()).as("freed with less than 10 ms of the deadline left")
			.isLessThan(Duration.ofMillis(AttemptAbort.SEND_MARGIN_MILLIS).toNanos());
		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as("the wait for a connection ate the deadline")
			.isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(DEADLINE);
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(upstream.countRequestsMatching(getRequestedFor(urlPathEqualTo("/items/starved")).build()).getCount())
			.as("the request that got the connection too late was not sent")
			.isZero();
		assertThat(breaker.getNumberOfFailedCalls()).as("the upstream saw nothing to blame").isEqualTo(failedBefore);
	}

	private void starved(CloseableHttpClient httpClient, InventoryClient inventory) throws Exception {
		starved(httpClient, "inventory", DEADLINE, "/items/held", () -> inventory.item("starved"));
	}

	private void starved(CloseableHttpClient httpClient, String client, Duration deadline, String heldPath,
			ThrowingCallable call) throws Exception {
		upstream.stubFor(get(urlPathEqualTo(heldPath)).willReturn(aResponse().withStatus(200).withBody("held")));
		CircuitBreaker.Metrics breaker = this.breakers.circuitBreaker(client).getMetrics();
		int failedBefore = breaker.getNumberOfFailedCalls();
		long start;
		long waited;
		Throwable thrown;
		// The pool's only connection, held until the starved call is over.
		try (ClassicHttpResponse held = httpClient.executeOpen(null, new HttpGet(upstream.baseUrl() + heldPath),
				null)) {
			assertThat(held.getCode()).isEqualTo(200);
			start = System.nanoTime();
			thrown = catchThrowable(call);
			waited = System.nanoTime() - start;
		}

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(failure.configuredTimeout()).as("the timeout that fired is the deadline").isEqualTo(deadline);
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(Duration.ofNanos(waited)).as("ended at the deadline, not at the pool's wait")
			.isGreaterThanOrEqualTo(deadline.minusMillis(20))
			.isLessThan(POOL_WAIT.dividedBy(2));
		assertThat(breaker.getNumberOfFailedCalls()).as("our own pool is not the upstream's failure")
			.isEqualTo(failedBefore);
		assertThat(upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount())
			.as("only the held request reached the upstream")
			.isEqualTo(1);
	}

}
