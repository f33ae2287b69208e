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
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.UpstreamResponseException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import feign.Client;
import feign.hc5.ApacheHttp5Client;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application's own {@code feign.Client} bean replaces the one Spring Cloud OpenFeign builds on the HttpClient 5
 * whose own retries Triage turns off (SPEC §5): one on an HttpClient 5 that retries on its own
 * ({@code new ApacheHttp5Client(HttpClients.createDefault())}) would send a 503 twice per attempt behind the table,
 * so the Feign client is refused when it is built (at startup where it is injected), naming the client and what to
 * build instead; one built as Triage says sends what the table says.
 */
class OwnHttpClientBeanTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@Test
	void aFeignClientOnAnHttpClientThatRetriesOnItsOwnIsRefusedWhenBuiltSayingWhatToBuild() {
		try (ConfigurableApplicationContext context = start(RetryingHttpClient.class)) {
			Throwable thrown = catchThrowable(() -> context.getBean(InventoryClient.class).item("1"));

			assertThat(thrown).hasRootCauseInstanceOf(IllegalStateException.class);
			assertThat(rootCause(thrown).getMessage()).contains("Client 'inventory'")
				.contains("its Feign client retries on its own")
				.contains("disableAutomaticRetries()");
			assertThat(upstream.getAllServeEvents()).isEmpty();
		}
	}

	@Test
	void anHttpClientBeanBuiltAsTriageSaysSendsWhatTheTableSays() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		try (ConfigurableApplicationContext context = start(BoundHttpClient.class)) {
			Throwable thrown = catchThrowable(() -> context.getBean(InventoryClient.class).item("1"));

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			assertThat(upstream.getAllServeEvents()).as("the 503 row: 3 attempts").hasSize(3);
		}
	}

	private static ConfigurableApplicationContext start(Class<?> httpClient) {
		return new SpringApplicationBuilder(TestApplication.class, httpClient).web(WebApplicationType.NONE)
			.run("--test.upstream.inventory=" + upstream.baseUrl(), "--test.upstream.billing=" + upstream.baseUrl(),
					"--triage.policies.503.backoff.initial=1ms", "--triage.policies.503.backoff.max=1ms",
					"--triage.retry-budget.enabled=false", "--triage.throttle.enabled=false");
	}

	private static Throwable rootCause(Throwable thrown) {
		Throwable cause = thrown;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Configuration(proxyBeanMethods = false)
	static class RetryingHttpClient {

		@Bean
		Client applicationsFeignClient() {
			return new ApacheHttp5Client(HttpClients.createDefault());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BoundHttpClient {

		@Bean
		Client applicationsFeignClient() {
			return new ApacheHttp5Client(
					AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries()).build());
		}

	}

}
