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
import java.util.Objects;

import io.github.resilience4j.core.IntervalFunction;

/**
 * Exponential backoff: the wait before retry n is {@code min(initial × multiplier^(n-1), max)}, then moved by
 * up to ±{@code jitter} of itself. Resilience4j's {@link IntervalFunction} computes the capped interval; the
 * jitter is applied after the cap so that {@code max} really is the centre of the longest wait.
 */
public final class Backoff {

	private final Duration initial;

	private final double multiplier;

	private final Duration max;

	private final double jitter;

	private final IntervalFunction interval;

	/**
	 * Create a backoff. Values are validated by {@link RuleOverride}; this constructor only checks for nulls.
	 * @param initial the first wait
	 * @param multiplier the growth factor, at least 1
	 * @param max the longest wait before jitter
	 * @param jitter the randomization factor, 0 to 1
	 */
	public Backoff(Duration initial, double multiplier, Duration max, double jitter) {
		this.initial = Objects.requireNonNull(initial, "initial");
		this.multiplier = multiplier;
		this.max = Objects.requireNonNull(max, "max");
		this.jitter = jitter;
		this.interval = IntervalFunction.ofExponentialBackoff(Math.max(1, initial.toMillis()), multiplier,
				Math.max(1, max.toMillis()));
	}

	/**
	 * Return a constant backoff without jitter.
	 * @param wait the wait before every retry
	 * @return the backoff
	 */
	public static Backoff fixed(Duration wait) {
		return new Backoff(wait, 1.0, wait, 0.0);
	}

	/**
	 * Return the wait before a retry.
	 * @param retry the retry number, 1 for the first retry
	 * @param random a uniform random number in [0, 1)
	 * @return the wait
	 */
	public Duration delay(int retry, double random) {
		long base = this.interval.apply(Math.max(1, retry));
		double factor = 1.0 + this.jitter * (2.0 * random - 1.0);
		return Duration.ofMillis(Math.max(0, Math.round(base * factor)));
	}

	/**
	 * Return the first wait.
	 * @return the initial wait
	 */
	public Duration initial() {
		return this.initial;
	}

	/**
	 * Return the growth factor.
	 * @return the multiplier
	 */
	public double multiplier() {
		return this.multiplier;
	}

	/**
	 * Return the longest wait before jitter.
	 * @return the max
	 */
	public Duration max() {
		return this.max;
	}

	/**
	 * Return the randomization factor.
	 * @return the jitter, 0 to 1
	 */
	public double jitter() {
		return this.jitter;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Backoff that && this.initial.equals(that.initial)
				&& this.multiplier == that.multiplier && this.max.equals(that.max) && this.jitter == that.jitter;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.initial, this.multiplier, this.max, this.jitter);
	}

	@Override
	public String toString() {
		return this.initial.toMillis() + "ms x" + this.multiplier + " -> " + this.max.toMillis() + "ms, jitter "
				+ this.jitter;
	}

}
