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
package dev.triage.restclient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.atomic.AtomicInteger;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient} from Spring Boot's {@code RestClient.Builder}, put under a client's table with
 * {@code TriageHttpServices.forClient}: calls made on it directly are retried as the table says and throw Triage's
 * typed exceptions; a caller's own status handler still wins; an interceptor added before Triage's runs once per
 * call (on Spring Framework 6.2 Triage's must be the last one).
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "test.context=boot-rest-client")
class BootRestClientTests extends LoopbackUpstream {

	@Autowired
	RestClient.Builder restClients;

	@Autowired
	TriageHttpServices triage;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void aPlainRestClientIsRetriedAsTheRowSaysAndThrowsTheTypedException() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		RestClient client = this.restClients.clone().baseUrl(upstream.baseUrl()).apply(this.triage.forClient("catalog")).build();

		Throwable thrown = catchThrowable(() -> client.get().uri("/items/1").retrieve().body(String.class));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		UpstreamResponseException failure = (UpstreamResponseException) thrown;
		assertThat(failure.response().status()).isEqualTo(503);
		assertThat(failure.client()).isEqualTo("catalog");
		assertThat(failure.attempts()).isEqualTo(3);
		assertThat(wireCount()).as("the 503 row: 3 attempts").isEqualTo(3);
	}

	@Test
	void aCallersOwnStatusHandlerStillWins() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404).withBody("{\"error\":\"none\"}")));
		RestClient client = this.restClients.clone().baseUrl(upstream.baseUrl()).apply(this.triage.forClient("catalog")).build();

		ResponseEntity<String> answer = client.get()
			.uri("/items/1")
			.retrieve()
			.onStatus((status) -> status.value() == 404, (request, response) -> {
			})
			.toEntity(String.class);

		assertThat(answer.getStatusCode().value()).isEqualTo(404);
		assertThat(answer.getBody()).as("the captured body").isEqualTo("{\"error\":\"none\"}");
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void anInterceptorAddedBeforeTriagesRunsOncePerCall() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(502).withHeader("Retry-After", "0")));
		AtomicInteger seen = new AtomicInteger();
		RestClient client = this.restClients.clone()
			.baseUrl(upstream.baseUrl())
			.requestInterceptor((request, body, execution) -> {
				seen.incrementAndGet();
				return execution.execute(request, body);
			})
			.apply(this.triage.forClient("catalog"))
			.build();

		catchThrowable(() -> client.get().uri("/items/1").retrieve().toBodilessEntity());

		assertThat(wireCount()).as("the 502 row: 3 attempts").isEqualTo(3);
		assertThat(seen).as("an interceptor before Triage's runs once per call").hasValue(1);
	}

}
