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

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import dev.triage.policy.RetryAfter;
import org.junit.jupiter.api.Test;

/**
 * The overload mechanisms as plain Java, on a hand-driven clock.
 */
class OverloadUnitTests {

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	private void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	@Test
	void budgetAllowsTheReservePlusRatioOfFirstAttemptsInTheWindow() {
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(true, 0.2, 1, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 100; i++) {
			budget.onFirstAttempt();
		}
		int granted = 0;
		while (budget.tryRetry()) {
			granted++;
		}
		assertThat(granted).as("10 reserve + 0.2 x 100").isEqualTo(30);
		assertThat(budget.retriesLeft()).isZero();
		budget.onFirstAttempt();
		budget.onFirstAttempt();
		budget.onFirstAttempt();
		budget.onFirstAttempt();
		budget.onFirstAttempt();
		assertThat(budget.tryRetry()).as("five more first attempts earn one retry").isTrue();
		assertThat(budget.tryRetry()).isFalse();
	}

	@Test
	void budgetAllowsWholeRetriesOnly() {
		// 0.2 x 38 = 7.6: at most 7 retries, as retriesLeft() says.
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(true, 0.2, 0, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 38; i++) {
			budget.onFirstAttempt();
		}
		long left = budget.retriesLeft();
		int granted = 0;
		while (budget.tryRetry()) {
			granted++;
		}
		assertThat(left).isEqualTo(7);
		assertThat(granted).isEqualTo(7);
	}

	@Test
	void noIncrementIsLostWhileBucketsTurn() throws Exception {
		// Four threads add at once while every bucket turns to its period (1,000 buckets, each period once, all
		// inside one window): every add must be in the sum. Clearing a bucket after publishing its new period lost
		// the adds made in between (one retry too many for the budget); 2,000 rounds make that race show.
		int threads = 4;
		int adds = 4_000;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			for (int round = 0; round < 2_000; round++) {
				AtomicLong clock = new AtomicLong();
				SlidingWindow window = new SlidingWindow(Duration.ofNanos(16_000), 1_000, 2, clock::get);
				CyclicBarrier start = new CyclicBarrier(threads);
				List<Future<?>> done = new ArrayList<>();
				for (int t = 0; t < threads; t++) {
					done.add(pool.submit(() -> {
						start.await();
						for (int i = 0; i < adds; i++) {
							window.add(1, clock.getAndIncrement());
						}
						return null;
					}));
				}
				for (Future<?> future : done) {
					future.get();
				}
				assertThat(window.sum(1, clock.get() - 1)).as("round %d", round).isEqualTo((long) threads * adds);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void aTimeIsCountedInItsOwnPeriodWhateverTheOrderTimesComeIn() {
		// 4 buckets of 16 ns. The period last looked at is kept to skip the division: a time before it, after it,
		// on its edges or below zero must still land in its own period.
		SlidingWindow window = new SlidingWindow(Duration.ofNanos(64), 4, 1, () -> 0L);
		long[] times = { 20, 31, 32, 16, 15, -1, -16, 47, 20, 0 };
		for (long time : times) {
			window.add(0, time);
		}
		// Period -1: -1 and -16; 0: 15 and 0; 1: 20, 31, 16 and 20; 2: 32 and 47.
		assertThat(window.sum(0, 47)).as("periods -1 to 2").isEqualTo(10);
		assertThat(window.sum(0, 31)).as("periods -2 to 1").isEqualTo(8);
		assertThat(window.sum(0, 0)).as("periods -3 to 0").isEqualTo(4);
		assertThat(window.sum(0, -1)).as("periods -4 to -1").isEqualTo(2);
		assertThat(window.sum(0, 48)).as("periods 0 to 3").isEqualTo(8);
		assertThat(window.sum(0, 79)).as("periods 1 to 4").isEqualTo(6);
	}

	@Test
	void budgetRefillsAsTheWindowSlides() {
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(true, 0, 1, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 10; i++) {
			assertThat(budget.tryRetry()).isTrue();
		}
		assertThat(budget.tryRetry()).isFalse();
		advance(Duration.ofSeconds(11));
		assertThat(budget.retriesLeft()).isEqualTo(10);
		assertThat(budget.tryRetry()).isTrue();
	}

	@Test
	void noWindowHoldsMoreRetriesThanItsFirstAttemptsEarnWhateverInstantItStartsAt() {
		// SPEC §8.1: "within any sliding window". Ratio 1, no reserve, 10 s in seconds. First attempts at 0.1 s
		// earn 10 retries, made at 0.9 s. At 10.5 s the window (0.5 s, 10.5 s] holds those 10 retries and none of
		// those first attempts; 10 new first attempts earn 10 retries, all taken already. Counting whole seconds
		// alike for both, the second the window starts in (0 s to 1 s) was left out: 10 more retries, 20 in a
		// window that earned 10.
		long start = this.nanos.get() - Math.floorMod(this.nanos.get(), 1_000_000_000L);
		this.nanos.set(start + 100_000_000L);
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(true, 1.0, 0, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 10; i++) {
			budget.onFirstAttempt();
		}
		this.nanos.set(start + 900_000_000L);
		int early = 0;
		while (budget.tryRetry()) {
			early++;
		}
		this.nanos.set(start + 10_500_000_000L);
		for (int i = 0; i < 10; i++) {
			budget.onFirstAttempt();
		}
		int late = 0;
		while (budget.tryRetry()) {
			late++;
		}
		assertThat(early).isEqualTo(10);
		assertThat(late).as("retries in (0.5 s, 10.5 s] beyond the 10 earned").isZero();
		assertThat(budget.retriesLeft()).isZero();
		this.nanos.set(start + 11_000_000_000L);
		assertThat(budget.retriesLeft()).as("given back once the second of the early retries has left the window")
			.isEqualTo(10);
	}

	@Test
	void newBudgetSettingsKeepTheWindowUnlessItsLengthChanges() {
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(true, 0, 2, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 20; i++) {
			assertThat(budget.tryRetry()).isTrue();
		}
		assertThat(budget.tryRetry()).as("reserve of 20 spent").isFalse();

		RetryBudget wider = budget.with(new RetryBudget.Settings(true, 0, 3, Duration.ofSeconds(10)));
		assertThat(wider.retries()).as("the window carried over").isEqualTo(20);
		assertThat(wider.retriesLeft()).isEqualTo(10);
		assertThat(budget.with(budget.settings())).isSameAs(budget);

		RetryBudget longer = budget.with(new RetryBudget.Settings(true, 0, 2, Duration.ofSeconds(20)));
		assertThat(longer.retries()).as("another window length starts counting again").isZero();
	}

	@Test
	void newThrottleSettingsKeepTheWindow() {
		AdaptiveThrottle throttle = new AdaptiveThrottle(AdaptiveThrottle.Settings.DEFAULTS, this.nanos::get,
				() -> 0.0);
		for (int i = 0; i < 30; i++) {
			if (throttle.admit()) {
				throttle.onAnswered(false);
			}
		}
		AdaptiveThrottle changed = throttle.with(new AdaptiveThrottle.Settings(true, 1.5, Duration.ofMinutes(2), 10,
				0.5));
		assertThat(changed.requests()).isEqualTo(30);
		assertThat(changed.dropProbability()).as("no accepts: the new cap").isEqualTo(0.5);
		assertThat(throttle.with(throttle.settings())).isSameAs(throttle);
	}

	@Test
	void disabledBudgetAllowsEveryRetry() {
		RetryBudget budget = new RetryBudget(new RetryBudget.Settings(false, 0, 0, Duration.ofSeconds(10)),
				this.nanos::get);
		for (int i = 0; i < 1000; i++) {
			assertThat(budget.tryRetry()).isTrue();
		}
	}

	@Test
	void throttleNeverRefusesWhileAtLeastOneInKIsAccepted() {
		AdaptiveThrottle throttle = new AdaptiveThrottle(AdaptiveThrottle.Settings.DEFAULTS, this.nanos::get,
				() -> 0.0);
		for (int i = 0; i < 10_000; i++) {
			assertThat(throttle.admit()).isTrue();
			throttle.onAnswered(i % 2 == 0);
		}
		assertThat(throttle.dropProbability()).isZero();
	}

	@Test
	void throttleRefusesWithTheSreProbabilityOnceTheWindowHoldsEnoughRequests() {
		AdaptiveThrottle throttle = new AdaptiveThrottle(
				new AdaptiveThrottle.Settings(true, 2, Duration.ofMinutes(2), 20, 0.9), this.nanos::get, () -> 0.5);
		for (int i = 0; i < 20; i++) {
			assertThat(throttle.admit()).as("a cold client is never throttled").isTrue();
			throttle.onAnswered(i < 5);
		}
		// (20 - 2 x 5) / 21 = 0.476: a draw of 0.5 passes
		assertThat(throttle.dropProbability()).isCloseTo(10 / 21.0, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(throttle.admit()).isTrue();
		throttle.onAnswered(false);
		for (int i = 0; i < 100; i++) {
			if (throttle.admit()) {
				throttle.onAnswered(false);
			}
		}
		assertThat(throttle.dropProbability()).as("capped").isEqualTo(0.9);
		assertThat(throttle.admit()).as("a draw of 0.5 is below 0.9").isFalse();
	}

	@Test
	void attemptsStillOnTheirWayNeverCountAgainstTheClient() {
		// 100 calls at once to a healthy upstream that answers in 300 ms: counted as requests when sent, the 21st
		// found 20 requests and no accept, and 9 in 10 of the rest were refused.
		AdaptiveThrottle throttle = new AdaptiveThrottle(AdaptiveThrottle.Settings.DEFAULTS, this.nanos::get,
				() -> 0.0);
		for (int i = 0; i < 100; i++) {
			assertThat(throttle.admit()).as("attempt %d, none answered yet", i).isTrue();
		}
		for (int i = 0; i < 100; i++) {
			throttle.onAnswered(true);
		}
		assertThat(throttle.requests()).isEqualTo(100);
		assertThat(throttle.accepts()).isEqualTo(100);
		assertThat(throttle.admit()).isTrue();
	}

	@Test
	void aRefusedAttemptCountsAsARequestAtOnce() {
		AdaptiveThrottle throttle = new AdaptiveThrottle(AdaptiveThrottle.Settings.DEFAULTS, this.nanos::get,
				() -> 0.0);
		for (int i = 0; i < 20; i++) {
			throttle.admit();
			throttle.onAnswered(false);
		}
		assertThat(throttle.admit()).isFalse();
		assertThat(throttle.requests()).isEqualTo(21);
	}

	@Test
	void throttleForgetsOnceTheWindowHasPassed() {
		AdaptiveThrottle throttle = new AdaptiveThrottle(
				new AdaptiveThrottle.Settings(true, 2, Duration.ofSeconds(12), 20, 0.9), this.nanos::get, () -> 0.0);
		for (int i = 0; i < 100; i++) {
			if (throttle.admit()) {
				throttle.onAnswered(false);
			}
		}
		assertThat(throttle.admit()).isFalse();
		advance(Duration.ofSeconds(13));
		assertThat(throttle.requests()).isZero();
		assertThat(throttle.admit()).isTrue();
	}

	@Test
	void pauseLastsUntilTheAskedInstantAndIsOnlyExtended() {
		AtomicLong millis = new AtomicLong(1_000_000);
		Clock clock = new Clock() {

			@Override
			public ZoneOffset getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(java.time.ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				return Instant.ofEpochMilli(millis.get());
			}

		};
		Pause pause = new Pause(clock);
		assertThat(pause.isPaused()).isFalse();
		pause.pauseFor(Duration.ofSeconds(5));
		assertThat(pause.isPaused()).isTrue();
		assertThat(pause.until()).isEqualTo(Instant.ofEpochMilli(1_005_000));
		pause.pauseFor(Duration.ofSeconds(1));
		assertThat(pause.until()).as("never shortened").isEqualTo(Instant.ofEpochMilli(1_005_000));
		pause.pauseFor(Duration.ofSeconds(9));
		assertThat(pause.until()).as("extended").isEqualTo(Instant.ofEpochMilli(1_009_000));
		millis.addAndGet(9_000);
		assertThat(pause.isPaused()).isFalse();
		assertThat(pause.until()).isNull();
		pause.pauseFor(Duration.ZERO);
		assertThat(pause.isPaused()).isFalse();
	}

	@Test
	void aPauseOnADateEndsNoSoonerThanTheAskedInstant() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00.000500Z"), ZoneOffset.UTC);
		Pause pause = new Pause(clock);
		pause.pauseFor(RetryAfter.parse("Sun, 29 Nov 2026 12:00:18 GMT", clock).orElseThrow());
		assertThat(pause.until()).as("rounded up, not down").isEqualTo(Instant.parse("2026-11-29T12:00:18Z"));
		assertThat(pause.remaining()).isEqualTo(Duration.ofMillis(18_000));
	}

}
