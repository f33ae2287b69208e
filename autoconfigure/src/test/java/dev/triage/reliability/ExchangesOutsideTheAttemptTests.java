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

package dev.triage.reliability;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.triage.TriageFallback;
import dev.triage.support.BillingClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.client.RestClient;

/**
 * An HTTP exchange made while a managed call is still open, but not by it: a fallback that asks another service
 * through a plain {@code RestClient} from Spring Boot's builder (whose HttpClient 5 carries Triage's handlers).
 * Billing's call ends at its 300 ms deadline; the fallback's own request is neither bounded by that deadline nor
 * refused because it passed.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "triage.clients.billing.deadline=300ms")
@Import(ExchangesOutsideTheAttemptTests.BackupFallback.class)
class ExchangesOutsideTheAttemptTests extends LoopbackUpstream {

	@Test
	void aFallbackAskingAnotherServiceAfterTheDeadlinePassedIsNotCutByIt() {
		upstream.stubFor(get(urlPathEqualTo("/invoices"))
			.willReturn(aResponse().withStatus(200).withBody("late").withFixedDelay(3_000)));
		upstream.stubFor(get(urlPathEqualTo("/backup/invoices")).willReturn(aResponse().withStatus(200).withBody("backup")));

		String answer = this.billing.invoices();

		assertThat(answer).isEqualTo("backup");
		assertThat(upstream.countRequestsMatching(getRequestedFor(urlPathEqualTo("/backup/invoices")).build())
			.getCount()).as("the fallback's request reached its service").isEqualTo(1);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class BackupFallback {

		@Bean
		TriageFallback<BillingClient> billingFallback(RestClient.Builder restClients) {
			return (exception, response) -> new BillingClient() {

				@Override
				public String invoices() {
					return restClients.clone()
						.baseUrl(upstream.baseUrl())
						.build()
						.get()
						.uri("/backup/invoices")
						.retrieve()
						.body(String.class);
				}

				@Override
				public String invoice(String id) {
					return invoices();
				}

			};
		}

	}

}
