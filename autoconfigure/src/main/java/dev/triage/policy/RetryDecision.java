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

import java.time.Duration;
import java.util.Locale;

/**
 * Whether to make another attempt and how long to wait first, or why not.
 *
 * @param retry whether to retry
 * @param delay the wait before the next attempt, zero when not retrying
 * @param suppressed why a retry the rule would otherwise allow was not made, {@code null} when retrying or
 * when the rule simply ran out of attempts
 */
public record RetryDecision(boolean retry, Duration delay, Suppression suppressed) {

	/**
	 * Why a retry was not made although attempts were left.
	 */
	public enum Suppression {

		/** The request is not idempotent and carries no {@code Idempotency-Key}. */
		NOT_IDEMPOTENT,

		/** The server asked to wait longer than {@code retry-after-max}. */
		RETRY_AFTER_TOO_LONG,

		/** The wait would cross the client's deadline. */
		DEADLINE,

		/** The upstream's breaker opened during the retry sequence. */
		BREAKER_OPEN,

		/** The client's retry budget for the window is spent. */
		BUDGET,

		/** The upstream was paused by another call's {@code Retry-After}. */
		PAUSED,

		/** Adaptive throttling refused the retry. */
		THROTTLED,

		/** The client's rate limiter had no permit for the retry. */
		RATE_LIMITED,

		/** The client's bulkhead had no free permit for the retry. */
		BULKHEAD_FULL,

		/** The request turned out to be poison. */
		POISON,

		/** The application closed (its context, e.g. on a rolling deploy) while the call waited for its retry. */
		SHUTDOWN,

		/** The caller's thread was interrupted while the call waited for its retry. */
		INTERRUPTED,

		/** The application's own retry hook (a Feign {@code Retryer} of its own) gave up. */
		RETRYER;

		private final String tag = name().toLowerCase(Locale.ROOT);

		/**
		 * Return the tag value, e.g. {@code retry_after_too_long}.
		 * @return the lower-case name
		 */
		public String tag() {
			return this.tag;
		}

	}

	static RetryDecision retryAfter(Duration wait) {
		return new RetryDecision(true, wait, null);
	}

	static RetryDecision exhausted() {
		return new RetryDecision(false, Duration.ZERO, null);
	}

	/**
	 * Return a decision not to retry for a reason.
	 * @param reason the reason
	 * @return the decision
	 */
	public static RetryDecision suppressed(Suppression reason) {
		return new RetryDecision(false, Duration.ZERO, reason);
	}

}
