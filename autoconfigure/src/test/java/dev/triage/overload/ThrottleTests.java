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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.triage.Refusal;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Adaptive throttling over real HTTP. 429s without {@code Retry-After}, one attempt each (so one call is one
 * request), the default k, min-requests and maximum drop probability; billing has throttling switched off.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.policies.429.max-attempts=1", "triage.clients.inventory.throttle.window=2s",
				"triage.clients.billing.throttle.enabled=false" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class ThrottleTests extends LoopbackUpstream {

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathEqualTo("/items/busy")).willReturn(aResponse().withStatus(429)));
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/invoices")).willReturn(aResponse().withStatus(429)));
	}

	@Test
	void aBurstOfCallsToAHealthyUpstreamIsNeverRefused() throws Exception {
		// 40 calls at once, each answered 200 after 600 ms: counted as requests when sent, the 21st and later found
		// 20 requests and no accept yet, and 9 in 10 of them were refused THROTTLED.
		upstream.stubFor(get(urlPathEqualTo("/items/slow"))
			.willReturn(aResponse().withStatus(200).withBody("ok").withFixedDelay(600)));
		int callers = 40;
		ExecutorService pool = Executors.newFixedThreadPool(callers);
		try {
			CyclicBarrier start = new CyclicBarrier(callers);
			List<Future<Throwable>> calls = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				calls.add(pool.submit(() -> {
					start.await();
					return catchThrowable(() -> this.inventory.item("slow"));
				}));
			}
			for (Future<Throwable> call : calls) {
				assertThat(call.get(60, TimeUnit.SECONDS)).isNull();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(wireCount()).isEqualTo(callers);
	}

	@Test
	void anUpstreamRejectingEverythingGetsASmallFractionOfTheCalls() {
		int refused = 0;
		for (int i = 0; i < 200; i++) {
			Throwable thrown = catchThrowable(() -> this.inventory.item("busy"));
			if (thrown instanceof UpstreamUnavailableException unavailable) {
				assertThat(unavailable.refusal()).isEqualTo(Refusal.THROTTLED);
				assertThat(unavailable.attempts()).isZero();
				refused++;
			}
		}

		long wire = wireCount();
		assertThat(wire + refused).isEqualTo(200);
		// 20 before the window holds min-requests, then about 1 in 10 (the 0.9 cap) to see recovery.
		assertThat(wire).isBetween(21L, 80L);
	}

	@Test
	void whileAtLeastHalfTheAttemptsAreAcceptedNothingIsRefused() {
		for (int i = 0; i < 200; i++) {
			// 40% 429s: 2 of every 5 calls
			boolean busy = i % 5 == 1 || i % 5 == 3;
			Throwable thrown = catchThrowable(() -> this.inventory.item(busy ? "busy" : "ok"));
			assertThat(thrown instanceof UpstreamUnavailableException).as("refused: " + thrown).isFalse();
		}
		assertThat(wireCount()).isEqualTo(200);
	}

	@Test
	void theUpstreamIsCalledNormallyAgainOnceTheWindowHasPassed() throws Exception {
		for (int i = 0; i < 100; i++) {
			catchThrowable(() -> this.inventory.item("busy"));
		}
		assertThat(catchThrowable(() -> {
			for (int i = 0; i < 20; i++) {
				this.inventory.item("ok");
			}
		})).as("still throttled right after the rejections").isInstanceOf(UpstreamUnavailableException.class);

		Thread.sleep(2_300);
		upstream.resetRequests();
		for (int i = 0; i < 50; i++) {
			assertThat(this.inventory.item("ok")).isEqualTo("ok");
		}
		assertThat(wireCount()).isEqualTo(50);
	}

	@Test
	void aClientWithThrottlingOffSendsEveryCall() {
		for (int i = 0; i < 200; i++) {
			catchThrowable(() -> this.billing.invoices());
		}
		assertThat(wireCount()).isEqualTo(200);
	}

}
