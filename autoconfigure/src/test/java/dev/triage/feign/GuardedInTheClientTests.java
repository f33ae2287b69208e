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
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.WithoutProtection;
import feign.Response;
import feign.Util;
import feign.codec.Decoder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * A 2xx over Apache HttpClient 5 is guarded inside the client's entity: the decoder gets the client's own body,
 * not a copy of the response with a replaced body, and the attempt still settles when the body ends or is closed.
 */
@WithoutProtection
@SpringBootTest(classes = GuardedInTheClientTests.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class GuardedInTheClientTests extends LoopbackUpstream {

	@Autowired
	GuardedClient guarded;

	@Autowired
	FeignClientFactory feignClientFactory;

	@Autowired
	RecordingObserver observer;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
		upstream.stubFor(get(urlEqualTo("/guarded")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/plain")
			.withHeader("X-One", "1")
			.withHeader("X-Two", "2")
			.withBody("ok")));
	}

	@Test
	void theDecoderGetsTheClientsOwnBodyAndTheAttemptSettlesWhenItEnds() {
		assertThat(this.guarded.read()).isEqualTo("ok");
		RecordingDecoder decoder = this.feignClientFactory.getInstance("guarded", RecordingDecoder.class);
		assertThat(decoder.body).as("no copy of the response to replace its body")
			.isNotInstanceOf(GuardedBody.class)
			.satisfies((body) -> assertThat(body.getClass().getName()).startsWith("feign.hc5.ApacheHttp5Client"));
		assertThat(this.observer.attempts).as("settled when the body ended: recorded once, a 2xx")
			.singleElement()
			.satisfies((attempt) -> assertThat(attempt.code()).isEqualTo("200"));
		assertThat(this.observer.calls).singleElement()
			.satisfies((call) -> assertThat(call.outcome().tag()).isEqualTo("success"));
	}

	@Test
	void aBodyNobodyReadsSettlesWhenFeignClosesIt() {
		this.guarded.touch();
		assertThat(this.observer.attempts).as("settled when Feign closed the unread body")
			.singleElement()
			.satisfies((attempt) -> assertThat(attempt.code()).isEqualTo("200"));
		assertThat(wireCount()).isEqualTo(1);
	}

	@FeignClient(name = "guarded", url = "${test.upstream.inventory}", configuration = GuardedClient.OwnDecoder.class)
	interface GuardedClient {

		@GetMapping("/guarded")
		String read();

		@GetMapping("/guarded")
		void touch();

		/** A decoder that remembers the body it was given. */
		class OwnDecoder {

			@Bean
			RecordingDecoder recordingDecoder() {
				return new RecordingDecoder();
			}

		}

	}

	static class RecordingDecoder implements Decoder {

		volatile Response.Body body;

		@Override
		public Object decode(Response response, Type type) throws IOException {
			this.body = response.body();
			return Util.toString(response.body().asReader(StandardCharsets.UTF_8));
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(RecordingObserverConfiguration.class)
	@EnableFeignClients(clients = { GuardedClient.class, InventoryClient.class, BillingClient.class })
	static class App {

	}

}
