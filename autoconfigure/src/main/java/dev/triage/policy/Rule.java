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

/**
 * A fully resolved treatment for one kind of outcome. Immutable; built once at startup. Every field is
 * described once, in {@link RuleField}; {@link #builder()} names them when a rule is written by hand.
 *
 * @param maxAttempts total attempts including the first; 1 means never retried
 * @param backoff the wait between attempts when no {@code Retry-After} applies
 * @param retryAfter whether a {@code Retry-After} header decides the wait
 * @param retryAfterMax the longest {@code Retry-After} that is still retried, {@code null} for no limit
 * @param idempotentOnly whether only idempotent requests (or requests with {@code Idempotency-Key}) are retried
 * @param breaker how the outcome counts in the upstream's breaker
 * @param alert whether a final outcome of this kind is alert-worthy
 * @param fallback whether the fallback is called for a final outcome of this kind
 * @param pause whether a valid {@code Retry-After} on this outcome pauses the whole upstream
 * @param overload whether this outcome is the upstream rejecting load (it feeds adaptive throttling)
 * @param failover whether the next attempt of the call goes to the next channel
 */
public record Rule(int maxAttempts, Backoff backoff, RetryAfterMode retryAfter, Duration retryAfterMax,
		boolean idempotentOnly, BreakerOutcome breaker, boolean alert, boolean fallback, boolean pause,
		boolean overload, boolean failover) {

	/**
	 * Return whether this rule ever retries.
	 * @return whether more than one attempt is allowed
	 */
	public boolean retries() {
		return this.maxAttempts > 1;
	}

	/**
	 * Return a builder whose every field is the cautious default of a row that never retries: one attempt,
	 * 200ms ×2 → 2s with ±50% jitter, {@code Retry-After} ignored, idempotent requests only, counted as a
	 * breaker failure, not alert-worthy, fallback called, no pause, no overload, no failover.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder holding this rule's fields.
	 * @return a builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.maxAttempts = this.maxAttempts;
		builder.backoffInitial = this.backoff.initial();
		builder.backoffMultiplier = this.backoff.multiplier();
		builder.backoffMax = this.backoff.max();
		builder.backoffJitter = this.backoff.jitter();
		builder.retryAfter = this.retryAfter;
		builder.retryAfterMax = this.retryAfterMax;
		builder.idempotentOnly = this.idempotentOnly;
		builder.breaker = this.breaker;
		builder.alert = this.alert;
		builder.fallback = this.fallback;
		builder.pause = this.pause;
		builder.overload = this.overload;
		builder.failover = this.failover;
		return builder;
	}

	/**
	 * Builds a {@link Rule} field by field.
	 */
	public static final class Builder {

		private int maxAttempts = 1;

		private Duration backoffInitial = Duration.ofMillis(200);

		private double backoffMultiplier = 2.0;

		private Duration backoffMax = Duration.ofSeconds(2);

		private double backoffJitter = 0.5;

		private RetryAfterMode retryAfter = RetryAfterMode.IGNORE;

		private Duration retryAfterMax;

		private boolean idempotentOnly = true;

		private BreakerOutcome breaker = BreakerOutcome.FAILURE;

		private boolean alert;

		private boolean fallback = true;

		private boolean pause;

		private boolean overload;

		private boolean failover;

		private Builder() {
		}

		public Builder maxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
			return this;
		}

		/**
		 * Set the whole backoff.
		 * @param initial the first wait
		 * @param multiplier the growth factor
		 * @param max the longest wait before jitter
		 * @param jitter the randomization factor
		 * @return this builder
		 */
		public Builder backoff(Duration initial, double multiplier, Duration max, double jitter) {
			return backoffInitial(initial).backoffMultiplier(multiplier).backoffMax(max).backoffJitter(jitter);
		}

		public Builder backoffInitial(Duration initial) {
			this.backoffInitial = initial;
			return this;
		}

		public Builder backoffMultiplier(double multiplier) {
			this.backoffMultiplier = multiplier;
			return this;
		}

		public Builder backoffMax(Duration max) {
			this.backoffMax = max;
			return this;
		}

		public Builder backoffJitter(double jitter) {
			this.backoffJitter = jitter;
			return this;
		}

		public Builder retryAfter(RetryAfterMode retryAfter) {
			this.retryAfter = retryAfter;
			return this;
		}

		public Builder retryAfterMax(Duration retryAfterMax) {
			this.retryAfterMax = retryAfterMax;
			return this;
		}

		/**
		 * Honor {@code Retry-After} up to a maximum.
		 * @param max the longest wait still retried
		 * @return this builder
		 */
		public Builder honorRetryAfter(Duration max) {
			return retryAfter(RetryAfterMode.HONOR).retryAfterMax(max);
		}

		public Builder idempotentOnly(boolean idempotentOnly) {
			this.idempotentOnly = idempotentOnly;
			return this;
		}

		public Builder breaker(BreakerOutcome breaker) {
			this.breaker = breaker;
			return this;
		}

		public Builder alert(boolean alert) {
			this.alert = alert;
			return this;
		}

		public Builder fallback(boolean fallback) {
			this.fallback = fallback;
			return this;
		}

		public Builder pause(boolean pause) {
			this.pause = pause;
			return this;
		}

		public Builder overload(boolean overload) {
			this.overload = overload;
			return this;
		}

		public Builder failover(boolean failover) {
			this.failover = failover;
			return this;
		}

		/**
		 * Build the rule; a {@code backoff.max} below {@code backoff.initial} is raised to it.
		 * @return the rule
		 */
		public Rule build() {
			Duration max = (this.backoffMax.compareTo(this.backoffInitial) < 0) ? this.backoffInitial : this.backoffMax;
			return new Rule(this.maxAttempts,
					new Backoff(this.backoffInitial, this.backoffMultiplier, max, this.backoffJitter), this.retryAfter,
					this.retryAfterMax, this.idempotentOnly, this.breaker, this.alert, this.fallback, this.pause,
					this.overload, this.failover);
		}

	}

}
