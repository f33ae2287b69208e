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
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.policy.RetryDecision;
import dev.triage.support.BillingClient;
import dev.triage.support.DegradedBilling;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A user's own retryer (Feign's {@code Retryer.Default}, set through Spring Cloud OpenFeign's properties) keeps
 * the contract: callers get Triage's typed exceptions, never an internal signal; the fallback is called; the
 * meters report the real status. It decides the waits, within the table: what the table does not retry (beyond
 * max-attempts, a write, a Retry-After above retry-after-max) is not retried, and no attempt starts after the
 * deadline.
 */
@WithoutProtection
@SpringBootTest(classes = { TestApplication.class, RecordingObserverConfiguration.class,
		UsersOwnRetryerTests.Fallbacks.class }, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.retryer=feign.Retryer.Default",
				"spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"spring.cloud.openfeign.client.config.billing.retryer=dev.triage.feign.UsersOwnRetryerTests$SlowRetryer",
				"triage.clients.billing.deadline=1s",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class UsersOwnRetryerTests extends LoopbackUpstream {

	@Autowired
	RecordingObserver observer;

	@Autowired
	Fallbacks fallbacks;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
		this.fallbacks.responses.clear();
	}

	@Test
	void aRetryableAnswerTheRetryerGaveUpOnIsAnUpstreamResponseException() {
		upstream.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(503)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().status()).isEqualTo(503);
		assertThat(wireCount()).as("the table's max-attempts for a 503, although Retryer.Default makes five")
			.isEqualTo(3);
		assertThat(this.observer.calls).singleElement().satisfies((call) -> {
			assertThat(call.failureClass().tag()).isEqualTo("5xx");
			assertThat(call.code()).isEqualTo("503");
		});
	}

	@Test
	void aWriteIsNotRetriedByTheApplicationsRetryer() {
		upstream.stubFor(post(urlPathEqualTo("/orders")).willReturn(aResponse().withStatus(503)));

		Throwable thrown = catchThrowable(() -> this.inventory.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(upstream.findAll(postRequestedFor(urlPathEqualTo("/orders")))).hasSize(1);
	}

	@Test
	void aWriteWithAnIdempotencyKeyIsRetriedByTheApplicationsRetryer() {
		upstream.stubFor(post(urlPathEqualTo("/orders")).willReturn(aResponse().withStatus(503)));

		catchThrowable(() -> this.inventory.order("{}", "key-1"));

		assertThat(upstream.findAll(postRequestedFor(urlPathEqualTo("/orders")))).hasSize(3);
	}

	@Test
	void aRetryAfterAboveRetryAfterMaxFailsFastWithTheApplicationsRetryer() {
		upstream.stubFor(get(urlPathEqualTo("/items/1"))
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "3600")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void noAttemptStartsAfterTheDeadlineWhileTheApplicationsRetryerWaits() {
		upstream.stubFor(get(urlPathEqualTo("/invoices/0")).willReturn(aResponse().withStatus(200).withBody("warm")));
		assertThat(this.billing.invoice("0")).as("a first call, so that the measured one starts warm").isEqualTo("warm");
		upstream.stubFor(get(urlPathEqualTo("/invoices/1")).willReturn(aResponse().withStatus(503)));
		this.observer.clear();
		double retriesBefore = retries("billing");

		long start = System.nanoTime();
		String answer = this.billing.invoice("1");
		long tookMillis = (System.nanoTime() - start) / 1_000_000;

		assertThat(answer).as("the fallback's").isEqualTo(new DegradedBilling().invoice("1"));
		assertThat(this.fallbacks.responses).singleElement()
			.satisfies((response) -> assertThat(response.status()).isEqualTo(503));
		// The retryer waits 600 ms between attempts: the second attempt (at 600 ms) starts before the 1 s deadline,
		// the third would start after it (1.2 s), and the retryer's own schedule would run on for seconds.
		assertThat(upstream.findAll(getRequestedFor(urlPathEqualTo("/invoices/1")))).hasSize(2);
		assertThat(tookMillis).as("ends once the retryer's wait crosses the deadline").isLessThan(3_000);
		assertThat(this.observer.calls).last()
			.satisfies((call) -> assertThat(call.retrySuppressed()).isEqualTo(RetryDecision.Suppression.DEADLINE));
		assertThat(retries("billing") - retriesBefore).as("only the retry made is counted").isEqualTo(1);
	}

	@Test
	void aRetryAfterTheRuleHonoursIsWaitedOutWhateverTheRetryerWaits() {
		// Retryer.Default waits at most 1 s; the server asks for 2.
		upstream.stubFor(get(urlPathEqualTo("/items/1")).inScenario("maintenance")
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2"))
			.willSetStateTo("back"));
		upstream.stubFor(get(urlPathEqualTo("/items/1")).inScenario("maintenance")
			.whenScenarioStateIs("back")
			.willReturn(aResponse().withStatus(200).withBody("item")));

		assertThat(this.inventory.item("1")).isEqualTo("item");

		List<LoggedRequest> requests = upstream.findAll(getRequestedFor(urlPathEqualTo("/items/1")));
		assertThat(requests).hasSize(2);
		long gap = Math.abs(requests.get(1).getLoggedDate().getTime() - requests.get(0).getLoggedDate().getTime());
		assertThat(gap).as("never earlier than the server asked").isGreaterThanOrEqualTo(2_000);
	}

	private double retries(String client) {
		return this.meters.find("triage.retries").tag("client", client).counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	@Test
	void aTransportFailureTheRetryerGaveUpOnIsAnUpstreamTransportException() {
		upstream.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(200).withFixedDelay(1_000)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(this.observer.calls).singleElement()
			.satisfies((call) -> assertThat(call.code()).isEqualTo("read-timeout"));
	}

	@Test
	void theFallbackGetsTheRealAnswer() {
		upstream.stubFor(get(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(503)));

		assertThat(this.billing.invoices()).isEqualTo("degraded");
		assertThat(this.fallbacks.responses).singleElement()
			.satisfies((response) -> assertThat(response.status()).isEqualTo(503));
	}

	/** Waits 600 ms before each of up to ten attempts. */
	public static class SlowRetryer extends feign.Retryer.Default {

		public SlowRetryer() {
			super(600, 600, 10);
		}

		@Override
		public feign.Retryer clone() {
			return new SlowRetryer();
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Fallbacks {

		final List<OriginalResponse> responses = new CopyOnWriteArrayList<>();

		@Bean
		TriageFallback<BillingClient> billingFallback() {
			return (exception, response) -> {
				this.responses.add(response);
				return new DegradedBilling();
			};
		}

	}

}
