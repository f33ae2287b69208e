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

import dev.triage.TriageHttpServices;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient} given to {@code createClient} with a status handler of its own
 * ({@code defaultStatusHandler}) that throws an exception of the application's: as with a Feign client's own error
 * decoder, the caller gets that exception once the table is done with the answer, and the meters see what the
 * upstream really said. It was taken for a 2xx body that broke off and replaced by Triage's exception.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=own-status-handler", "triage.policies.503.backoff.initial=1ms",
				"triage.policies.503.backoff.max=1ms" })
class OwnStatusHandlerTests extends LoopbackUpstream {

	@Autowired
	TriageHttpServices triage;

	@Autowired
	MeterRegistry registry;

	@Test
	void theApplicationsOwnStatusHandlerThrowsItsExceptionAfterTheTableAndTheMetersSeeTheAnswer() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		InventoryClient inventory = this.triage.createClient("own-handler", InventoryClient.class,
				RestClient.builder()
					.baseUrl(upstream.baseUrl())
					.defaultStatusHandler((status) -> status.value() == 503, (request, response) -> {
						throw new TeapotException();
					})
					.build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(TeapotException.class);
		assertThat(wireCount()).as("the 503 row: 3 attempts").isEqualTo(3);
		assertThat(this.registry.get("triage.calls").tag("client", "own-handler").tag("outcome", "failure")
			.tag("code", "503").timer().count()).isEqualTo(1);
	}

	static class TeapotException extends RuntimeException {

	}

}
