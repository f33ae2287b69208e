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

package dev.triage.policy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.UpstreamResponseException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Where seed 000 and seed 001 disagree: the built-in table retries a 500 (seed 001), and the two rules of
 * {@code seed000.yml} (the YAML docs/policy-table.md shows) give seed 000's behaviour: an unknown 500 is not
 * retried, a 500 whose error type the upstream documents as recoverable is. Counted on the wire; the backoff is
 * shortened here only to keep the test fast.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.config.import=classpath:seed000.yml", "triage.throttle.enabled=false",
				"triage.error-types.DATABASE_CONNECTION_FAILURE.backoff.initial=1ms",
				"triage.error-types.DATABASE_CONNECTION_FAILURE.backoff.max=1ms" })
class Seed000DefaultsTests extends LoopbackUpstream {

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathEqualTo("/items/bug"))
			.willReturn(aResponse().withStatus(500).withBody("{\"error\":{\"type\":\"null_pointer\"}}")));
		upstream.stubFor(get(urlPathEqualTo("/items/busy"))
			.willReturn(aResponse().withStatus(500).withBody("{\"error\":{\"type\":\"DATABASE_CONNECTION_FAILURE\"}}")));
	}

	@Test
	void anUnknownFiveHundredIsNotRetried() {
		Throwable thrown = catchThrowable(() -> this.inventory.item("bug"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(1);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void aFiveHundredWithARecoverableErrorTypeIsRetried() {
		Throwable thrown = catchThrowable(() -> this.inventory.item("busy"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(3);
		assertThat(wireCount()).isEqualTo(3);
	}

}
