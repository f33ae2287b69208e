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

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.SpringVersion;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient} from Spring Boot's {@code RestClient.Builder}, put under a client's table with
 * {@code TriageHttpServices.forClient}: calls made on it directly are retried as the table says and throw Triage's
 * typed exceptions; a caller's own status handler still wins; Triage's interceptor goes first on Spring Framework 7
 * (every other one sees every attempt) and last on 6.2 (which runs the ones after a re-executing interceptor on
 * the first attempt only); a builder left to Spring's default request factory gets it without Apache HttpClient
 * 5's own retries, a builder's own factory is kept.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "test.context=boot-rest-client")
class BootRestClientTests extends LoopbackUpstream {

	/** Spring Framework 7 runs the interceptors after a re-executing one on every attempt; 6.2 on the first only. */
	static final boolean FRAMEWORK_7 = SpringVersion.getVersion().startsWith("7.");

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
	void aBuilderLeftToSpringsDefaultRequestFactorySendsWhatTheTableSaysNotTwiceAsMuch() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		RestClient client = RestClient.builder().baseUrl(upstream.baseUrl()).apply(this.triage.forClient("spring-default")).build();

		Throwable thrown = catchThrowable(() -> client.get().uri("/items/1").retrieve().body(String.class));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(3);
		assertThat(wireCount()).as("the 503 row: 3 attempts, none repeated by Apache HttpClient 5 on its own")
			.isEqualTo(3);
	}

	@Test
	void aServiceClientOverRestClientCreateSendsWhatTheTableSays() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		InventoryClient inventory = this.triage.createClient("rest-client-create", InventoryClient.class,
				RestClient.create(upstream.baseUrl()));

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).as("the 503 row: 3 attempts, none repeated by Apache HttpClient 5 on its own")
			.isEqualTo(3);
	}

	@Test
	void aReadTimeoutSetOnTheConnectionsSocketIsTheConfiguredTimeoutReported() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(1500)));
		// As Spring Boot's HTTP client settings set a read timeout: on the connections' sockets, not per request.
		CloseableHttpClient http = AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(Timeout.ofMilliseconds(300)).build())
				.build())
			.build();
		InventoryClient inventory = this.triage.createClient("socket-timeout", InventoryClient.class, RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.requestFactory(new HttpComponentsClientHttpRequestFactory(http))
			.build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(300));
		assertThat(failure.getMessage()).contains("300ms");
	}

	@Test
	void aBuildersOwnRequestFactoryIsKept() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		AtomicInteger created = new AtomicInteger();
		SimpleClientHttpRequestFactory simple = new SimpleClientHttpRequestFactory();
		RestClient client = RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.requestFactory((uri, method) -> {
				created.incrementAndGet();
				return simple.createRequest(uri, method);
			})
			.apply(this.triage.forClient("own-factory"))
			.build();

		catchThrowable(() -> client.get().uri("/items/1").retrieve().toBodilessEntity());

		assertThat(created).as("every attempt went through the builder's own factory").hasValue(3);
		assertThat(wireCount()).isEqualTo(3);
	}

	@Test
	void anInterceptorAddedBeforeTriagesSeesEveryAttemptOnFramework7AndRunsOncePerCallOn62() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(502).withHeader("Retry-After", "0")));
		AtomicInteger seen = new AtomicInteger();
		RestClient client = this.restClients.clone()
			.baseUrl(upstream.baseUrl())
			.requestInterceptor((request, body, execution) -> {
				seen.incrementAndGet();
				return execution.execute(request, body);
			})
			.apply(this.triage.forClient("interceptor-before"))
			.build();

		catchThrowable(() -> client.get().uri("/items/1").retrieve().toBodilessEntity());

		assertThat(wireCount()).as("the 502 row: 3 attempts").isEqualTo(3);
		if (FRAMEWORK_7) {
			assertThat(seen).as("Triage's interceptor goes first: every other one sees every attempt").hasValue(3);
		}
		else {
			assertThat(seen).as("Triage's interceptor goes last: one before it runs once per call").hasValue(1);
		}
	}

	@Test
	void anInterceptorOfTheRestClientOfAServiceClientSeesEveryAttemptOnFramework7() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(502).withHeader("Retry-After", "0")));
		AtomicInteger seen = new AtomicInteger();
		InventoryClient inventory = this.triage.createClient("service-interceptor", InventoryClient.class,
				this.restClients.clone().baseUrl(upstream.baseUrl()).requestInterceptor((request, body, execution) -> {
					seen.incrementAndGet();
					return execution.execute(request, body);
				}).build());

		catchThrowable(() -> inventory.item("1"));

		assertThat(wireCount()).as("the 502 row: 3 attempts").isEqualTo(3);
		assertThat(seen).hasValue(FRAMEWORK_7 ? 3 : 1);
	}

}
