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

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import dev.triage.Refusal;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * A call whose deadline passes while it waits for a permit of its client's bulkhead (which waits as long as its own
 * settings say) is refused as what held it back, with nothing on the wire: sent, it was cut before it left and
 * reported as a wait for a pooled connection ({@code POOL_TIMEOUT}). A rate limiter's permit that would come only
 * after the deadline is not waited for.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.inventory.deadline=1s", "triage.clients.billing.deadline=1s",
				"resilience4j.bulkhead.instances.inventory.max-concurrent-calls=1",
				"resilience4j.bulkhead.instances.inventory.max-wait-duration=10s",
				"resilience4j.ratelimiter.instances.billing.limit-for-period=1",
				"resilience4j.ratelimiter.instances.billing.limit-refresh-period=4s",
				"resilience4j.ratelimiter.instances.billing.timeout-duration=10s",
				"triage.clients.billing.throttle.enabled=false" })
class PermitWaitPastTheDeadlineTests extends LoopbackUpstream {

	@Autowired
	BulkheadRegistry bulkheads;

	@Autowired
	RateLimiterRegistry rateLimiters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@Test
	void aPermitOfTheBulkheadThatCameAfterTheDeadlineIsGivenBackAndTheCallRefused() {
		Bulkhead bulkhead = this.bulkheads.bulkhead("inventory");
		assertThat(bulkhead.tryAcquirePermission()).as("held by another call").isTrue();
		ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
		try {
			later.schedule(bulkhead::onComplete, 1_500, TimeUnit.MILLISECONDS);

			Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

			assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
			assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.BULKHEAD_FULL);
			assertThat(thrown).hasMessageContaining("the call's deadline of 1000ms passed while it waited");
			assertThat(wireCount()).isZero();
			assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).as("given back").isEqualTo(1);
		}
		finally {
			later.shutdownNow();
		}
	}

	@Test
	void aPermitOfTheRateLimiterThatWouldComeAfterTheDeadlineIsNotWaitedFor() throws InterruptedException {
		RateLimiter limiter = this.rateLimiters.rateLimiter("billing");
		// no permit left, and the next one more than 3 s away (well past the 1 s deadline)
		awaitNextPermit(limiter, (wait) -> wait > Duration.ofSeconds(3).toNanos());

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> this.billing.invoices());
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.RATE_LIMITED);
		assertThat(thrown).hasMessageContaining("has no permit within the call's deadline of 1000ms");
		assertThat(wireCount()).isZero();
		assertThat(took).as("refused without waiting for a permit 3 s away (the limiter's timeout is 10 s)")
			.isLessThan(Duration.ofMillis(2_500));
		assertThat(((AtomicRateLimiter) limiter).getDetailedMetrics().getNanosToWait())
			.as("no permit reserved and left unused: the next one is still the first to come")
			.isGreaterThan(0)
			.isLessThan(Duration.ofSeconds(4).toNanos());
	}

	@Test
	void aPermitOfTheRateLimiterThatComesWithinTheDeadlineIsWaitedFor() throws InterruptedException {
		RateLimiter limiter = this.rateLimiters.rateLimiter("billing");
		// the client's first call (classes loaded, a first connection) may take most of the deadline on a loaded
		// machine: made first, untimed, once a permit is there (no wait for it left out of the deadline)
		long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		do {
			while (limiter.getMetrics().getAvailablePermissions() < 1) {
				assertThat(System.nanoTime()).as("a permit within 60 s").isLessThan(giveUp);
				Thread.sleep(5);
			}
		}
		while (catchThrowable(() -> this.billing.invoices()) != null);
		upstream.resetRequests();
		awaitNextPermit(limiter, (wait) -> wait > 0 && wait <= Duration.ofMillis(150).toNanos());

		assertThat(this.billing.invoices()).isEqualTo("ok");
		assertThat(wireCount()).isOne();
	}

	/**
	 * Drain the limiter until the wait for its next permit is as asked.
	 */
	private static void awaitNextPermit(RateLimiter limiter, LongPredicate wanted) throws InterruptedException {
		long giveUp = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (true) {
			limiter.drainPermissions();
			long wait = ((AtomicRateLimiter) limiter).getDetailedMetrics().getNanosToWait();
			if (wanted.test(wait)) {
				return;
			}
			assertThat(System.nanoTime()).as("the limiter's next permit came as wanted").isLessThan(giveUp);
			Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(wait) + 50, 20)));
		}
	}

}
