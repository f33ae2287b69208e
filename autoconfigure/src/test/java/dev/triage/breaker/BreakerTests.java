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

package dev.triage.breaker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.ServerSocket;

import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.policy.RetryDecision;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * One Resilience4j breaker per upstream, fed attempt by attempt as the policy table says, against a real
 * upstream on loopback. The inventory breaker is configured small so that it opens after four counted
 * attempts; billing is left to Triage's defaults.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.circuitbreaker.instances.inventory.sliding-window-type=COUNT_BASED",
				"resilience4j.circuitbreaker.instances.inventory.sliding-window-size=4",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=4",
				"resilience4j.circuitbreaker.instances.inventory.failure-rate-threshold=50",
				"resilience4j.circuitbreaker.instances.inventory.wait-duration-in-open-state=800ms",
				"resilience4j.circuitbreaker.instances.inventory.permitted-number-of-calls-in-half-open-state=2" })
@Import(RecordingObserverConfiguration.class)
class BreakerTests extends LoopbackUpstream {

	@Autowired
	CircuitBreakerRegistry registry;

	@Autowired
	RecordingObserver observer;

	CircuitBreaker breaker;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.breaker = this.registry.circuitBreaker("inventory");
		this.breaker.reset();
		this.registry.circuitBreaker("billing").reset();
		this.observer.clear();
	}

	@Test
	void breakersAreNamedAfterTheClientAndUnconfiguredOnesGetTriageDefaults() {
		CircuitBreakerConfig billing = this.registry.circuitBreaker("billing").getCircuitBreakerConfig();
		assertThat(billing.getSlidingWindowType()).isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
		assertThat(billing.getSlidingWindowSize()).isEqualTo(10);
		assertThat(billing.getMinimumNumberOfCalls()).isEqualTo(10);
		assertThat(billing.getFailureRateThreshold()).isEqualTo(50f);
		assertThat(billing.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
		assertThat(billing.getWaitIntervalFunctionInOpenState().apply(1)).isEqualTo(5000L);
		assertThat(this.breaker.getCircuitBreakerConfig().getSlidingWindowSize()).as("user settings win").isEqualTo(4);
	}

	@Test
	void failuresOpenTheBreakerThenNothingReachesTheWireUntilHalfOpenProbesCloseIt() throws Exception {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(599)));
		for (int i = 0; i < 4; i++) {
			assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamResponseException.class);
		}
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(wireCount()).isEqualTo(4);

		Throwable refused = catchThrowable(() -> this.inventory.item("1"));

		assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) refused).attempts()).isZero();
		assertThat(wireCount()).as("short-circuited before the wire").isEqualTo(4);

		Thread.sleep(1000);
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("ok")));
		assertThat(this.inventory.item("1")).isEqualTo("ok");
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
		assertThat(this.inventory.item("2")).isEqualTo("ok");
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(wireCount()).isEqualTo(6);
	}

	@Test
	void halfOpenLetsExactlyTheConfiguredProbesThrough() throws Exception {
		this.breaker.transitionToOpenState();
		Thread.sleep(1000);
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(599)));

		catchThrowable(() -> this.inventory.item("probe-1"));
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
		catchThrowable(() -> this.inventory.item("probe-2"));
		Throwable third = catchThrowable(() -> this.inventory.item("third"));

		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(third).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void clientErrorsAndRateLimitsNeverOpenTheBreaker() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(400)));
		for (int i = 0; i < 20; i++) {
			catchThrowable(() -> this.inventory.item("bad"));
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "0")));
		for (int i = 0; i < 10; i++) {
			catchThrowable(() -> this.inventory.item("fast"));
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(499)));
		for (int i = 0; i < 10; i++) {
			catchThrowable(() -> this.inventory.item("cancelled"));
		}

		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(this.breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		assertThat(wireCount()).as("20 x 400, 10 x 429 retried to 3 attempts, 10 x 499").isEqualTo(20 + 30 + 10);
	}

	@Test
	void connectionFailuresOpenTheBreaker() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			closedPort = socket.getLocalPort();
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(307)
			.withHeader("Location", "http://127.0.0.1:" + closedPort + "/gone")));
		for (int i = 0; i < 4; i++) {
			assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamTransportException.class);
		}
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
	}

	@Test
	void aBreakerOpeningMidRetryStopsTheRetriesAndReturnsTheLastRealOutcome() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(3);

		Throwable second = catchThrowable(() -> this.inventory.item("2"));

		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		assertThat(second).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) second).response().status()).isEqualTo(503);
		assertThat(((UpstreamResponseException) second).attempts()).isEqualTo(1);
		assertThat(wireCount()).as("the fourth counted failure opened it: no fifth attempt").isEqualTo(4);
		assertThat(this.observer.decisions).extracting(RetryDecision::suppressed)
			.contains(RetryDecision.Suppression.BREAKER_OPEN);
	}

	@Test
	void twoClientsHaveTwoIndependentBreakers() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(599)));
		for (int i = 0; i < 4; i++) {
			catchThrowable(() -> this.inventory.item("1"));
		}
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("invoices")));

		assertThat(this.billing.invoices()).isEqualTo("invoices");
		assertThat(this.registry.circuitBreaker("billing").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(this.breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
	}

}
