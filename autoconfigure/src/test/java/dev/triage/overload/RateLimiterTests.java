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
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A Resilience4j rate limiter named after the client caps what reaches the wire, retries included. The
 * refresh period is long, so each test sees exactly one period's permits.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "resilience4j.ratelimiter.instances.inventory.limit-for-period=5",
				"resilience4j.ratelimiter.instances.inventory.limit-refresh-period=1h",
				"resilience4j.ratelimiter.instances.inventory.timeout-duration=0" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@ExtendWith(OutputCaptureExtension.class)
class RateLimiterTests extends LoopbackUpstream {

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/items/sick"))
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		upstream.stubFor(get(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(200).withBody("paid")));
	}

	@Test
	void callsBeyondThePeriodsPermitsAreRefusedWithoutReachingTheWire(CapturedOutput output) {
		int refused = 0;
		for (int i = 0; i < 8; i++) {
			Throwable thrown = catchThrowable(() -> this.inventory.item("ok"));
			if (thrown != null) {
				assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.RATE_LIMITED);
				refused++;
			}
		}

		assertThat(wireCount()).isEqualTo(5);
		assertThat(refused).isEqualTo(3);
		assertThat(this.meters.get("triage.refusals").tag("client", "inventory").tag("reason", "rate_limited")
			.counter()
			.count()).isEqualTo(3);
		assertThat(output).contains("class=refused code=rate_limited");
	}

	@Test
	void retriesTakePermitsTooAndARefusedRetryEndsWithTheLastRealAnswer(CapturedOutput output) {
		for (int i = 0; i < 3; i++) {
			this.inventory.item("ok");
		}

		Throwable thrown = catchThrowable(() -> this.inventory.item("sick"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().status()).isEqualTo(503);
		assertThat(wireCount()).as("3 calls + the sick call's first attempt and one retry").isEqualTo(5);
		assertThat(output).contains("retry_suppressed=rate_limited");
	}

	@Test
	void aClientWithoutALimiterIsNotLimited() {
		for (int i = 0; i < 20; i++) {
			assertThat(this.billing.invoices()).isEqualTo("paid");
		}
		assertThat(wireCount()).isEqualTo(20);
	}

}
