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

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What protects one client's upstream from overload, checked around every attempt: the retry budget, the
 * pause a {@code Retry-After} asked for, adaptive throttling and an optional static rate limit.
 *
 * @param budget the retry budget
 * @param throttle the adaptive throttle
 * @param pause the upstream's pause
 * @param rateLimit the static rate limit, {@link RateLimit#NONE} when none is configured
 * @param concurrencyLimit the concurrency limit (bulkhead), {@link ConcurrencyLimit#NONE} when none is configured
 * @param pauseMax the longest pause a {@code Retry-After} may ask for
 */
public record Overload(RetryBudget budget, AdaptiveThrottle throttle, Pause pause, RateLimit rateLimit,
		ConcurrencyLimit concurrencyLimit, Duration pauseMax) {

	/** The longest pause when nothing else is configured. */
	public static final Duration DEFAULT_PAUSE_MAX = Duration.ofMinutes(10);

	/**
	 * Create the protection of one client with the system clocks.
	 * @param budget the budget's settings
	 * @param throttle the throttle's settings
	 * @param rateLimit the rate limit
	 * @param clock the wall clock
	 * @return the protection
	 */
	public static Overload of(RetryBudget.Settings budget, AdaptiveThrottle.Settings throttle, RateLimit rateLimit,
			Clock clock) {
		return of(budget, throttle, rateLimit, ConcurrencyLimit.NONE, DEFAULT_PAUSE_MAX, clock);
	}

	/**
	 * Create the protection of one client with the system clocks.
	 * @param budget the budget's settings
	 * @param throttle the throttle's settings
	 * @param rateLimit the rate limit
	 * @param concurrencyLimit the concurrency limit
	 * @param pauseMax the longest pause
	 * @param clock the wall clock
	 * @return the protection
	 */
	public static Overload of(RetryBudget.Settings budget, AdaptiveThrottle.Settings throttle, RateLimit rateLimit,
			ConcurrencyLimit concurrencyLimit, Duration pauseMax, Clock clock) {
		return of(budget, throttle, rateLimit, concurrencyLimit, pauseMax, new Pause(clock));
	}

	/**
	 * Create the protection of one client with the system clocks and a given pause (shared by a fleet, §13).
	 * @param budget the budget's settings
	 * @param throttle the throttle's settings
	 * @param rateLimit the rate limit
	 * @param concurrencyLimit the concurrency limit
	 * @param pauseMax the longest pause
	 * @param pause the pause of the client's own URL
	 * @return the protection
	 */
	public static Overload of(RetryBudget.Settings budget, AdaptiveThrottle.Settings throttle, RateLimit rateLimit,
			ConcurrencyLimit concurrencyLimit, Duration pauseMax, Pause pause) {
		return new Overload(new RetryBudget(budget, System::nanoTime),
				new AdaptiveThrottle(throttle, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble()),
				pause, rateLimit, concurrencyLimit, pauseMax);
	}

}
