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

import dev.triage.TriageFallback;
import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.WithoutProtection;
import feign.Response;
import feign.codec.ErrorDecoder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An application's own Feign {@code ErrorDecoder} (one that maps answers to its own exceptions, as teams often
 * declare) without a retryer of its own: it makes the exception the caller gets, and the table still decides what
 * reaches the wire (Feign alone retries only what an error decoder returns as a {@code RetryableException}: the
 * table's retries were gone). In a client's configuration, and named in Spring Cloud OpenFeign's properties.
 */
@WithoutProtection
@SpringBootTest(classes = OwnErrorDecoderTests.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.policies.5xx.backoff.initial=1ms",
				"spring.cloud.openfeign.client.config.named.error-decoder=dev.triage.feign.OwnErrorDecoderTests$Mapped",
				"spring.cloud.openfeign.client.config.named.url=${test.upstream.inventory}",
				"triage.clients.defaulted.error-types.bug.max-attempts=1" })
class OwnErrorDecoderTests extends LoopbackUpstream {

	@Autowired
	Decoded decoded;

	@Autowired
	Named named;

	@Autowired
	WithFallback withFallback;

	@Autowired
	Defaulted defaulted;

	@Autowired
	RecordingObserver observer;

	@BeforeEach
	void answer500() {
		upstream.resetAll();
		this.observer.clear();
		upstream.stubFor(any(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(500)));
		upstream.stubFor(any(urlPathEqualTo("/orders")).willReturn(aResponse().withStatus(500)));
	}

	@Test
	void aGetAnswered500IsSentAsOftenAsTheTableSaysAndEndsInTheDecodersException() {
		Throwable thrown = catchThrowable(() -> this.decoded.item("1"));

		assertThat(thrown).isInstanceOf(MappedException.class).hasMessage("mapped 500");
		assertThat(wireCount()).as("the 5xx row's 4 attempts").isEqualTo(4);
		assertThat(this.observer.calls).singleElement().satisfies((call) -> {
			assertThat(call.code()).isEqualTo("500");
			assertThat(call.attempts()).isEqualTo(4);
		});
	}

	@Test
	void aPostAnswered500IsSentOnce() {
		assertThat(catchThrowable(() -> this.decoded.order("{}"))).isInstanceOf(MappedException.class);
		assertThat(wireCount()).as("a write that may have run").isEqualTo(1);
	}

	@Test
	void aRetryThatSucceedsReturnsTheAnswer() {
		upstream.stubFor(get(urlPathEqualTo("/items/1")).inScenario("once")
			.whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(500))
			.willSetStateTo("answered"));
		upstream.stubFor(get(urlPathEqualTo("/items/1")).inScenario("once")
			.whenScenarioStateIs("answered")
			.willReturn(aResponse().withStatus(200).withBody("item 1")));

		assertThat(this.decoded.item("1")).isEqualTo("item 1");
		assertThat(wireCount()).isEqualTo(2);
	}

	@Test
	void aDecoderNamedInSpringCloudsPropertiesIsUnderTheTableToo() {
		assertThat(catchThrowable(() -> this.named.item("1"))).isInstanceOf(MappedException.class);
		assertThat(wireCount()).as("the 5xx row's 4 attempts").isEqualTo(4);
	}

	@Test
	void theFallbackGetsTheRealAnswerAfterTheTablesAttempts() {
		assertThat(this.withFallback.item("1")).isEqualTo("fallback after 500, 4 attempts");
		assertThat(wireCount()).isEqualTo(4);
	}

	@Test
	void aRetryableExceptionOfTheDecodersOwnIsStillTheTablesToRetry() {
		// Feign's default decoder makes any answer with a Retry-After a RetryableException; the table's rule for
		// this error type says one attempt.
		upstream.stubFor(get(urlPathEqualTo("/items/2")).willReturn(aResponse().withStatus(500)
			.withHeader("Retry-After", "0")
			.withHeader("Content-Type", "application/json")
			.withBody("{\"type\":\"bug\"}")));

		Throwable thrown = catchThrowable(() -> this.defaulted.item("2"));

		assertThat(thrown).as("the decoder's exception").isInstanceOf(feign.RetryableException.class);
		assertThat(wireCount()).as("error-types.bug: one attempt").isEqualTo(1);
	}

	@Test
	void aRetryableExceptionOfTheDecodersOwnIsRetriedAsTheTableSays() {
		upstream.stubFor(get(urlPathEqualTo("/items/3")).willReturn(aResponse().withStatus(500)
			.withHeader("Retry-After", "0")));

		assertThat(catchThrowable(() -> this.defaulted.item("3"))).isInstanceOf(feign.RetryableException.class);
		assertThat(wireCount()).as("the 5xx row's 4 attempts").isEqualTo(4);
	}

	/** An application's exception for an upstream's answer. */
	static class MappedException extends RuntimeException {

		MappedException(String message) {
			super(message);
		}

	}

	/** The application's decoder: one exception of its own for every answer. */
	public static class Mapped implements ErrorDecoder {

		@Override
		public Exception decode(String methodKey, Response response) {
			return new MappedException("mapped " + response.status());
		}

	}

	/** A client configuration that declares the decoder, and no retryer. */
	static class OwnDecoder {

		@Bean
		ErrorDecoder mappedErrorDecoder() {
			return new Mapped();
		}

	}

	@FeignClient(name = "decoded", url = "${test.upstream.inventory}", configuration = OwnDecoder.class)
	interface Decoded {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

		@PostMapping("/orders")
		String order(@RequestBody String order);

	}

	/** Feign's own default decoder, declared as the application's. */
	static class FeignsDefault {

		@Bean
		ErrorDecoder feignsDefaultErrorDecoder() {
			return new ErrorDecoder.Default();
		}

	}

	@FeignClient(name = "defaulted", url = "${test.upstream.inventory}", configuration = FeignsDefault.class)
	interface Defaulted {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@FeignClient(name = "named")
	interface Named {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@FeignClient(name = "fallen", url = "${test.upstream.inventory}", configuration = OwnDecoder.class)
	interface WithFallback {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(RecordingObserverConfiguration.class)
	@EnableFeignClients(clients = { InventoryClient.class, BillingClient.class, Decoded.class, Named.class,
			WithFallback.class, Defaulted.class })
	static class App {

		@Bean
		TriageFallback<WithFallback> fallenFallback() {
			return (failure, response) -> (id) -> "fallback after " + response.status() + ", " + response.attempts()
					+ " attempts";
		}

	}

}
