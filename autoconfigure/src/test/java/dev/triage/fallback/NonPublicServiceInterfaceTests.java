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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.autoconfigure.TriageAutoConfiguration;
import dev.triage.support.HttpServiceClients;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;

/**
 * A service interface need not be public: package-private ones, in the application's own package (not Triage's),
 * are called through and answered for by their fallback like public ones.
 */
class NonPublicServiceInterfaceTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TriageAutoConfiguration.class))
		.withPropertyValues("triage.retry-budget.enabled=false", "triage.throttle.enabled=false",
				"triage.poison.enabled=false", "triage.policies.500.max-attempts=2");

	@Test
	void aPackagePrivateServiceInterfaceIsCalledAndItsFallbackAnswersForIt() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
		this.contextRunner.withBean(StockFallback.class).run((context) -> {
			TriageHttpServices triage = context.getBean(TriageHttpServices.class);
			Stock stock = triage.createClient("stock", Stock.class,
					HttpServiceClients.restClient(context.getEnvironment(), "stock", upstream.baseUrl()));
			Quotes quotes = triage.createClient("quotes", Quotes.class,
					HttpServiceClients.restClient(context.getEnvironment(), "quotes", upstream.baseUrl()));

			assertThat(stock.count("7")).isEqualTo("fallback-7");
			assertThat(wireCount()).isEqualTo(2);
			assertThat(catchThrowable(() -> quotes.quote("8"))).isInstanceOf(UpstreamResponseException.class);
			assertThat(wireCount()).isEqualTo(4);
		});
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

	interface Stock {

		@GetExchange("/stock/{id}")
		String count(@PathVariable("id") String id);

	}

	interface Quotes {

		@GetExchange("/quotes/{id}")
		String quote(@PathVariable("id") String id);

	}

	static class StockFallback implements TriageFallback<Stock> {

		@Override
		public Stock create(Throwable exception, OriginalResponse response) {
			return (id) -> "fallback-" + id;
		}

	}

}
