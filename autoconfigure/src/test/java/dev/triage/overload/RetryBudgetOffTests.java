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
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With the retry budget switched off, the table alone decides: 3 attempts per call at 100% 503.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.throttle.enabled=false", "triage.clients.inventory.retry-budget.enabled=false",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class RetryBudgetOffTests extends LoopbackUpstream {

	@Test
	void everyCallMakesTheTablesAttempts() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));

		for (int i = 0; i < 200; i++) {
			catchThrowable(() -> this.inventory.item("1"));
		}

		assertThat(wireCount()).isEqualTo(600);
	}

}
