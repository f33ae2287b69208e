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
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.BillingClient;
import dev.triage.support.DegradedBilling;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A user's own retryer (Feign's {@code Retryer.Default}, set through Spring Cloud OpenFeign's properties) keeps
 * the contract: callers get Triage's typed exceptions, never an internal signal; the fallback is called; the
 * meters report the real status.
 */
@WithoutProtection
@SpringBootTest(classes = { TestApplication.class, RecordingObserverConfiguration.class,
		UsersOwnRetryerTests.Fallbacks.class }, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.retryer=feign.Retryer.Default",
				"spring.cloud.openfeign.client.config.billing.retryer=feign.Retryer.Default",
				"spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class UsersOwnRetryerTests extends LoopbackUpstream {

	@Autowired
	RecordingObserver observer;

	@Autowired
	Fallbacks fallbacks;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
	}

	@Test
	void aRetryableAnswerTheRetryerGaveUpOnIsAnUpstreamResponseException() {
		upstream.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(503)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().status()).isEqualTo(503);
		assertThat(wireCount()).as("Retryer.Default's own five attempts").isEqualTo(5);
		assertThat(this.observer.calls).singleElement().satisfies((call) -> {
			assertThat(call.failureClass().tag()).isEqualTo("5xx");
			assertThat(call.code()).isEqualTo("503");
		});
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
