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

package dev.triage.fallback;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.CallRecord;
import dev.triage.support.InventoryClient;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Fallbacks receive what actually happened: {@code (null, response)} for a non-2xx answer,
 * {@code (exception, null)} for a transport failure or a refusal. Billing has no fallback.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.read-timeout=400",
				"triage.clients.inventory.policies.404.fallback=false", "triage.max-body-bytes=16B",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
@Import({ FallbackTests.Fallbacks.class, RecordingObserverConfiguration.class })
class FallbackTests extends LoopbackUpstream {

	@Autowired
	CachedInventory fallback;

	@Autowired
	RecordingObserver observer;

	@Autowired
	CircuitBreakerRegistry registry;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.fallback.received.clear();
		this.observer.clear();
		this.registry.circuitBreaker("inventory").reset();
	}

	@Test
	void nonSuccessAnswerReachesTheFallbackAsTheOriginalResponse() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")
			.withHeader("Set-Cookie", "session=s3cr3t")
			.withBody("{\"type\":\"overloaded_error\",\"padding\":\"xxxxxxxxxxxxxxxxxxxxxxxx\"}")));

		String answer = this.inventory.item("42");

		assertThat(answer).isEqualTo("cached-42");
		assertThat(this.fallback.received).hasSize(1);
		Received received = this.fallback.received.get(0);
		assertThat(received.exception()).isNull();
		OriginalResponse response = received.response();
		assertThat(response.status()).isEqualTo(503);
		assertThat(response.attempts()).isEqualTo(3);
		assertThat(response.headers().get("Set-Cookie")).containsExactly("[redacted]");
		assertThat(response.body()).hasSize(16);
		assertThat(response.bodyTruncated()).isTrue();
		assertThat(wireCount()).isEqualTo(3);
	}

	@Test
	void errorTypeReachesTheFallbackWhenTheBodyFitsTheCap() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")
			.withBody("{\"type\":\"busy\"}")));

		this.inventory.item("1");

		assertThat(this.fallback.received.get(0).response().errorType()).isEqualTo("busy");
	}

	@Test
	void transportFailureReachesTheFallbackAsTheException() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(1200)));

		assertThat(this.inventory.item("7")).isEqualTo("cached-7");

		Received received = this.fallback.received.get(0);
		assertThat(received.response()).isNull();
		assertThat(received.exception()).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) received.exception();
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(400));
		assertThat(failure.attempts()).isEqualTo(2);
	}

	@Test
	void openBreakerReachesTheFallbackAsUnavailableWithNothingOnTheWire() {
		this.registry.circuitBreaker("inventory").transitionToForcedOpenState();

		assertThat(this.inventory.item("9")).isEqualTo("cached-9");

		Received received = this.fallback.received.get(0);
		assertThat(received.response()).isNull();
		assertThat(received.exception()).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) received.exception()).attempts()).isZero();
		assertThat(wireCount()).isZero();
	}

	@Test
	void whatTheFallbackThrowsReachesTheCaller() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(400)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().status()).isEqualTo(400);
		assertThat(this.fallback.received).hasSize(1);
		assertThat(this.observer.calls).extracting((record) -> record.outcome().tag()).containsExactly("failure");
	}

	@Test
	void ruleWithFallbackFalseSkipsTheFallback() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(this.fallback.received).isEmpty();
		assertThat(this.observer.calls).extracting((record) -> record.outcome().tag()).containsExactly("failure");
	}

	@Test
	void aFallbackAnswerIsRecordedAsFallbackNextToTheOriginalFailureNeverAsSuccess() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));

		this.inventory.item("1");

		assertThat(this.observer.calls).hasSize(1);
		CallRecord call = this.observer.calls.get(0);
		assertThat(call.outcome().tag()).isEqualTo("fallback");
		assertThat(call.code()).isEqualTo("503");
		assertThat(call.failureClass().tag()).isEqualTo("5xx");
		assertThat(call.attempts()).isEqualTo(3);
		assertThat(call.failure()).isInstanceOf(UpstreamResponseException.class);
	}

	@Test
	void clientWithoutFallbackThrowsTheTypedException() {
		upstream.stubFor(any(urlPathMatching("/invoices")).willReturn(aResponse().withStatus(599)));

		Throwable thrown = catchThrowable(() -> this.billing.invoices());

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(this.fallback.received).isEmpty();
		assertThat(this.observer.calls).extracting((record) -> record.outcome().tag()).containsExactly("failure");
	}

	record Received(Throwable exception, OriginalResponse response) {
	}

	/** Serves a cached value on 5xx and transport failures, rethrows what the upstream said on 4xx. */
	static class CachedInventory implements TriageFallback<InventoryClient> {

		final List<Received> received = new CopyOnWriteArrayList<>();

		@Override
		public InventoryClient create(Throwable exception, OriginalResponse response) {
			this.received.add(new Received(exception, response));
			if (response != null && response.status() >= 400 && response.status() < 500) {
				throw new UpstreamResponseException(response);
			}
			return new InventoryClient() {

				@Override
				public String item(String id) {
					return "cached-" + id;
				}

				@Override
				public feign.Response raw(String id) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String search(String query, String authorization) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String profile(String authorization, String cookie) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String order(String body) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String order(String body, String idempotencyKey) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String replace(String id, String body) {
					throw new UnsupportedOperationException();
				}

				@Override
				public String cancel(String id) {
					throw new UnsupportedOperationException();
				}

			};
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Fallbacks {

		@Bean
		CachedInventory cachedInventory() {
			return new CachedInventory();
		}

	}

}
