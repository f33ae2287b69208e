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

package dev.triage.boot;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.http.Fault;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The application's own {@code RestClient}, built by Spring Boot on the Apache HttpClient 5 the starter brings
 * (the JDK's client without the starter): Triage does not manage it, and it must not start retrying behind the
 * application's back (HttpClient 5 sends a 503 with {@code Retry-After} and a reset GET twice), whether Triage is
 * on or switched off ({@link OtherHttpClientsWithTriageOffTests}).
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class OtherHttpClientsTests extends LoopbackUpstream {

	@Autowired
	RestClient.Builder restClients;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void aBootBuiltRestClientOnHttpClient5SendsA503OnceLikeTheJdkClientDid() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));
		RestClient client = this.restClients.baseUrl(upstream.baseUrl()).build();

		Throwable thrown = catchThrowable(() -> client.get().uri("/status").retrieve().toBodilessEntity());

		assertThat(thrown).isNotNull();
		assertThat(wireCount()).isEqualTo(1);
		assertThat(this.restClients.build()).extracting("clientRequestFactory")
			.isInstanceOf(HttpComponentsClientHttpRequestFactory.class);
	}

	@Test
	void aBootBuiltRestClientOnHttpClient5SendsAResetGetOnce() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
		RestClient client = this.restClients.baseUrl(upstream.baseUrl()).build();

		assertThat(catchThrowable(() -> client.get().uri("/reports").retrieve().toBodilessEntity())).isNotNull();
		assertThat(wireCount()).isEqualTo(1);
	}

}
