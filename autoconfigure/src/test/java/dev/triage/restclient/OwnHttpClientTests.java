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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.client5.http.classic.HttpClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient} with a request factory of the application's own on Apache HttpClient 5, put under a
 * client's table (SPEC §11: "the request factory's own retries are off"): an HttpClient that retries on its own
 * (Spring's {@code new HttpComponentsClientHttpRequestFactory()}, {@code HttpClients.createDefault()}) would send a
 * 503, a POST included, again behind the table, so it is refused with what to build instead; one without retries
 * but without Triage's attempt bound works and is warned about once.
 */
@WithoutProtection
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "test.context=boot-rest-client")
class OwnHttpClientTests extends LoopbackUpstream {

	@Autowired
	TriageHttpServices triage;

	@BeforeEach
	void answer503() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
	}

	@Test
	void anHttpClientThatRetriesOnItsOwnIsRefusedSayingWhatToBuild() {
		RestClient restClient = RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.requestFactory(new HttpComponentsClientHttpRequestFactory())
			.build();

		Throwable thrown = catchThrowable(
				() -> this.triage.createClient("own-retrying", InventoryClient.class, restClient));

		assertThat(thrown).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("Client 'own-retrying'")
			.hasMessageContaining("retries on its own")
			.hasMessageContaining("disableAutomaticRetries()");
		assertThat(catchThrowable(() -> RestClient.builder()
			.requestFactory(new HttpComponentsClientHttpRequestFactory(HttpClients.createDefault()))
			.apply(this.triage.forClient("own-retrying-builder")))).isInstanceOf(IllegalStateException.class);
		assertThat(wireCount()).isZero();
	}

	@Test
	void anHttpClientWithoutRetriesButWithoutTheAttemptBoundIsWarnedAboutOnceAndSendsWhatTheTableSays(
			CapturedOutput output) {
		HttpClient http = HttpClients.custom().disableAutomaticRetries().build();
		InventoryClient first = this.triage.createClient("own-unbounded", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).requestFactory(new HttpComponentsClientHttpRequestFactory(http)).build());
		this.triage.createClient("own-unbounded", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).requestFactory(new HttpComponentsClientHttpRequestFactory(http)).build());

		Throwable thrown = catchThrowable(() -> first.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).as("the 503 row: 3 attempts").isEqualTo(3);
		String warning = "Client 'own-unbounded': the Apache HttpClient 5 of its RestClient's request factory has no "
				+ "attempt bound";
		assertThat(output.getOut().split(warning, -1)).as("warned once").hasSize(2);
	}

	@Test
	void anHttpClientWithNoRetriesAndTheAttemptBoundIsTakenAsItIs(CapturedOutput output) {
		HttpClient http = AttemptAbortInterceptor.addTo(HttpClients.custom()
			.setRetryStrategy(new DefaultHttpRequestRetryStrategy(0, TimeValue.ZERO_MILLISECONDS))).build();
		InventoryClient inventory = this.triage.createClient("own-bounded", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).requestFactory(new HttpComponentsClientHttpRequestFactory(http)).build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).as("the 503 row: 3 attempts").isEqualTo(3);
		assertThat(output.getOut()).doesNotContain("Client 'own-bounded'");
	}

	@Test
	void aPoolTimeoutReportsTheWaitOfTheApplicationsOwnClient() throws Exception {
		try (RawServer slow = new RawServer()) {
			slow.answer((out) -> {
				Thread.sleep(1500);
				RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nslow");
			});
			aPoolTimeoutReportsTheWaitOfTheApplicationsOwnClient(slow);
		}
	}

	private void aPoolTimeoutReportsTheWaitOfTheApplicationsOwnClient(RawServer slow) throws Exception {
		HttpClient http = AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setMaxConnTotal(1)
				.setMaxConnPerRoute(1)
				.build())
			.setDefaultRequestConfig(
					RequestConfig.custom().setConnectionRequestTimeout(Timeout.ofMilliseconds(250)).build())
			.build();
		InventoryClient inventory = this.triage.createClient("own-pool", InventoryClient.class,
				RestClient.builder().baseUrl(slow.url()).requestFactory(new HttpComponentsClientHttpRequestFactory(http)).build());
		CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> inventory.item("held"));
		long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (slow.requests() == 0 && System.nanoTime() < waitUntil) {
			Thread.sleep(5);
		}
		assertThat(slow.requests()).as("the first call holds the only connection").isEqualTo(1);

		Throwable thrown = catchThrowable(() -> inventory.item("starved"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(failure.configuredTimeout()).as("the client's own wait, not Triage's settings")
			.isEqualTo(Duration.ofMillis(250));
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("slow");
		assertThat(slow.requests()).isEqualTo(1);
	}

	@Test
	void aRequestFactorySetAfterForClientIsSaidOnceAtWarn(CapturedOutput output) {
		RestClient late = RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.apply(this.triage.forClient("late-factory"))
			.requestFactory(new HttpComponentsClientHttpRequestFactory(HttpClients.custom().disableAutomaticRetries().build()))
			.build();
		RestClient checked = RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.apply(this.triage.forClient("checked-factory"))
			.build();

		for (int i = 0; i < 2; i++) {
			assertThat(catchThrowable(() -> late.get().uri("/items/1").retrieve().body(String.class)))
				.isInstanceOf(UpstreamResponseException.class);
		}
		assertThat(catchThrowable(() -> checked.get().uri("/items/1").retrieve().body(String.class)))
			.isInstanceOf(UpstreamResponseException.class);

		assertThat(wireCount()).as("the 503 row: 3 attempts a call").isEqualTo(9);
		String warning = "Client 'late-factory': an attempt of its RestClient went out on a request factory Triage did "
				+ "not check";
		assertThat(output.getOut().split(warning, -1)).as("warned once").hasSize(2);
		assertThat(output.getOut()).doesNotContain("Client 'checked-factory'");
	}

}
