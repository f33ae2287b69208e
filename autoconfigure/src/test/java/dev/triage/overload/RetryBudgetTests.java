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
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.UpstreamResponseException;
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
 * The retry budget over real HTTP: at 100% 503, with the breaker held closed and throttling off so that only
 * the budget limits what reaches the upstream.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.throttle.enabled=false", "logging.level.dev.triage.calls=INFO",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000",
				// A one-minute window with a reserve of 1 per second: the bound below holds even if this
				// machine is slow enough to spread the 200 calls over many seconds.
				"triage.clients.inventory.retry-budget.window=60s",
				"triage.clients.inventory.retry-budget.min-retries-per-second=1" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@ExtendWith(OutputCaptureExtension.class)
class RetryBudgetTests extends LoopbackUpstream {

	private static final int CALLS = 200;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void atFullFailureTheBudgetCapsWhatReachesTheUpstream() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		double suppressedBefore = suppressed("inventory");

		for (int i = 0; i < CALLS; i++) {
			assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamResponseException.class);
		}

		long wire = wireCount();
		assertThat(wire).as("200 x (1 + 0.2) + 1/s x 60s").isLessThanOrEqualTo(CALLS * 12 / 10 + 60);
		assertThat(wire).as("the table alone would send 600").isLessThan(3 * CALLS);
		assertThat(wire).as("the budget still lets retries through").isGreaterThan(CALLS);
		assertThat(suppressed("inventory") - suppressedBefore).as("one suppression per call cut short")
			.isGreaterThanOrEqualTo((3 * CALLS - wire) / 2.0);
	}

	@Test
	void anExpectedFailureCutShortByTheBudgetSaysSoInTheCallLog(CapturedOutput output) {
		// A 429 is alert: false, logged at most once per client and code every 10 s: the first call's line must not
		// hide that later 429s were not retried because the budget was spent (SPEC §8.1: reason in the call log).
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "0")));
		double suppressedBefore = suppressed("inventory");

		for (int i = 0; i < 100; i++) {
			assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamResponseException.class);
		}

		assertThat(suppressed("inventory") - suppressedBefore).as("100 x 2 retries wanted, 60 + 0.2 x 100 allowed")
			.isGreaterThanOrEqualTo(20);
		assertThat(output.getAll().lines()
			.filter((line) -> line.contains("triage call client=inventory") && line.contains(" code=429 ")))
			.anySatisfy((line) -> assertThat(line).contains(" INFO ").contains("retry_suppressed=budget"));
	}

	@Test
	void budgetsArePerClient() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		for (int i = 0; i < CALLS; i++) {
			catchThrowable(() -> this.inventory.item("1"));
		}
		upstream.resetRequests();

		UpstreamResponseException billing = (UpstreamResponseException) catchThrowable(() -> this.billing.invoices());

		assertThat(billing.attempts()).isEqualTo(3);
		assertThat(wireCount()).isEqualTo(3);
	}

	@Test
	void aHealthyUpstreamWithOccasionalFailuresGetsAllItsRetries() {
		upstream.stubFor(get(urlPathMatching("/invoices")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")));
		double suppressedBefore = suppressed("inventory");

		for (int i = 0; i < CALLS; i++) {
			if (i % 10 == 0) {
				catchThrowable(() -> this.inventory.item("1"));
			}
			else {
				this.billing.invoices();
			}
		}

		assertThat(wireCount()).as("180 successes + 20 failures x 4 attempts").isEqualTo(180 + 20 * 4);
		assertThat(suppressed("inventory")).isEqualTo(suppressedBefore);
	}

	private double suppressed(String client) {
		var counter = this.meters.find("triage.retries.suppressed").tag("client", client).tag("reason", "budget").counter();
		return (counter != null) ? counter.count() : 0;
	}

}
