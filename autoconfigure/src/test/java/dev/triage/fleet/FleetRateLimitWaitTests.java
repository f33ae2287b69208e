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

package dev.triage.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.triage.overload.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * SPEC §13: no call waits on Redis longer than {@code triage.fleet.timeout}, a fleet rate limit's caller included.
 * Two callers need a permit at once and share one lease of one permit; the one left without asks again, and Redis
 * is slow to answer that second lease: the caller is refused when its own timeout has passed (the fleet's limit
 * is in use, Redis answered), neither waiting for the store to give up on the command nor taking a permit of the
 * instance's own share for a lease still on its way.
 */
class FleetRateLimitWaitTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	@Test
	void aCallerWhoseSecondLeaseIsSlowIsRefusedWhenItsOwnTimeoutHasPassed() throws Exception {
		CountDownLatch bothWaiting = new CountDownLatch(1);
		AtomicInteger leases = new AtomicInteger();
		RedisConnection connection = mock(RedisConnection.class, (invocation) -> {
			String method = invocation.getMethod().getName();
			if (method.equals("evalSha") || method.equals("eval")) {
				if (leases.incrementAndGet() == 1) {
					// the first lease answers once both callers wait for it: one permit, for one of them
					bothWaiting.await(5, TimeUnit.SECONDS);
					return List.of(1L, 0L);
				}
				// the second is late: Redis answers it long after the caller's timeout
				Thread.sleep(5_000);
				return List.of(1L, 0L);
			}
			if (method.equals("ping")) {
				return "PONG";
			}
			return org.mockito.Answers.RETURNS_DEFAULTS.answer(invocation);
		});
		RedisConnectionFactory factory = mock(RedisConnectionFactory.class);
		given(factory.getConnection()).willReturn(connection);
		AtomicInteger ownShare = new AtomicInteger();
		RateLimit fallback = new RateLimit() {

			@Override
			public boolean acquire() {
				ownShare.incrementAndGet();
				return true;
			}

			@Override
			public String name() {
				return "inventory";
			}

			@Override
			public int availablePermissions() {
				return 1;
			}

		};
		ExecutorService callers = Executors.newFixedThreadPool(2);
		try (FleetStore store = new FleetStore(factory, "test:", TIMEOUT, Duration.ofSeconds(1))) {
			FleetRateLimit limit = new FleetRateLimit("inventory",
					new FleetRateLimit.Settings(100, Duration.ofMinutes(1), 1), store, fallback);
			long start = System.nanoTime();
			Future<Long> first = callers.submit(() -> acquired(limit, start));
			Future<Long> second = callers.submit(() -> acquired(limit, start));
			// both have joined the one lease in flight by then
			Thread.sleep(300);
			bothWaiting.countDown();

			long a = first.get(10, TimeUnit.SECONDS);
			long b = second.get(10, TimeUnit.SECONDS);

			assertThat(List.of(a, b)).as("one got the permit (>= 0 ms), the other was refused (< 0)")
				.anyMatch((millis) -> millis >= 0)
				.anyMatch((millis) -> millis < 0);
			long refusedAfter = -Math.min(a, b);
			assertThat(leases.get()).as("the one left without asked again").isEqualTo(2);
			assertThat(ownShare.get()).as("no permit of the instance's own share while a lease is on its way").isZero();
			// refused once its own timeout (1 s) had passed, not before; Redis answers the lease only after 5 s
			assertThat(refusedAfter).isGreaterThanOrEqualTo(TIMEOUT.toMillis()).isLessThan(4_000);
		}
		finally {
			callers.shutdownNow();
		}
	}

	/** Milliseconds from the start until the permit came; negative when refused. */
	private static long acquired(FleetRateLimit limit, long start) {
		boolean acquired = limit.acquire();
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		return acquired ? millis : -Math.max(1, millis);
	}

}
