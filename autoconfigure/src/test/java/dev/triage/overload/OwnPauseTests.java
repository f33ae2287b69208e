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

package dev.triage.overload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * SPEC §8.2: "The call that received the header behaves as before: it waits and retries if its rule allows." A
 * row that ignores {@code Retry-After} but pauses on it (billing's 503 here) retries after its own short backoff,
 * inside the pause its own answer set; other calls are refused for the pause.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.billing.policies.503.pause=true",
				"triage.clients.billing.policies.503.retry-after=ignore",
				"triage.clients.billing.policies.503.backoff.initial=10ms",
				"triage.clients.billing.policies.503.backoff.max=20ms" })
@DirtiesContext
class OwnPauseTests extends LoopbackUpstream {

	@Test
	void aCallIsNotRefusedByThePauseItsOwnAnswerSetButOtherCallsAre() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathEqualTo("/invoices"))
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "120")));

		Throwable thrown = catchThrowable(() -> this.billing.invoices());

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(3);
		assertThat(wireCount()).as("the 503 row's 3 attempts, its own pause notwithstanding").isEqualTo(3);
		upstream.resetRequests();
		Throwable refused = catchThrowable(() -> this.billing.invoices());
		assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) refused).refusal()).isEqualTo(Refusal.PAUSED);
		assertThat(wireCount()).isZero();
	}

}
