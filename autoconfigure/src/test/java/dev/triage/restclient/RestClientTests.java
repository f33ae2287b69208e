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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.autoconfigure.TriageAutoConfiguration;
import dev.triage.autoconfigure.TriageOffAutoConfiguration;
import dev.triage.support.BillingClient;
import dev.triage.support.HttpServiceClients;
import dev.triage.support.WireMocks;
import feign.Feign;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

/**
 * An {@code @HttpExchange} proxy in an application without Spring Cloud OpenFeign on its classpath: managed,
 * counted on the wire.
 */
class RestClientTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TriageAutoConfiguration.class, TriageOffAutoConfiguration.class))
		.withPropertyValues("triage.retry-budget.enabled=false", "triage.throttle.enabled=false",
				"triage.policies.503.pause=false");

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void withoutOpenFeignAnHttpServiceClientIsManagedAndItsBreakerRefusesWhenOpen() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
		this.contextRunner.withClassLoader(new FilteredClassLoader(Feign.class))
			.withPropertyValues("triage.policies.500.max-attempts=1", "triage.poison.enabled=false")
			.run((context) -> {
				BillingClient billing = context.getBean(TriageHttpServices.class)
					.createClient("billing", BillingClient.class,
							HttpServiceClients.restClient(context.getEnvironment(), "billing", upstream.baseUrl()));

				// Triage's breaker defaults: 10 calls in the window, half of them failed, and it opens.
				for (int i = 0; i < 10; i++) {
					assertThat(catchThrowable(billing::invoices)).isInstanceOf(UpstreamResponseException.class);
				}
				Throwable refused = catchThrowable(billing::invoices);

				assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
				assertThat(wireCount()).as("the open breaker sent nothing").isEqualTo(10);
			});
	}

	@Test
	void switchedOffTriageStillGivesTheBeanAndItsClientsArePlain() {
		// triage.enabled=false, the switch of an incident: an application that builds its clients with
		// TriageHttpServices must still start, and its clients are Spring's own, untouched.
		// a 500: a plain client on HttpClient 5 resends a 503 with Retry-After by itself, which is not the point here
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
		this.contextRunner.withPropertyValues("triage.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(dev.triage.engine.ManagedClients.class);
			TriageHttpServices triage = context.getBean(TriageHttpServices.class);
			BillingClient billing = triage.createClient("billing", BillingClient.class,
					HttpServiceClients.restClient(context.getEnvironment(), "billing", upstream.baseUrl()));
			RestClient plain = RestClient.builder().baseUrl(upstream.baseUrl()).apply(triage.forClient("billing")).build();

			assertThat(catchThrowable(billing::invoices)).isInstanceOf(HttpServerErrorException.class);
			assertThat(catchThrowable(() -> plain.get().uri("/invoices").retrieve().body(String.class)))
				.isInstanceOf(HttpServerErrorException.class);
			assertThat(wireCount()).as("no retry: the 5xx row is not in force").isEqualTo(2);
		});
		// and an application gets it as an auto-configuration, as it gets Triage's own
		assertThat(org.springframework.boot.context.annotation.ImportCandidates
			.load(org.springframework.boot.autoconfigure.AutoConfiguration.class, getClass().getClassLoader())
			.getCandidates()).contains(TriageOffAutoConfiguration.class.getName());
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
