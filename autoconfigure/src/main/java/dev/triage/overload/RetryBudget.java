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

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Caps the retries one client makes so that retries cannot multiply an outage (seed 000's retry storm: N
 * clients × (R+1) requests). Within a sliding window, retries are allowed up to
 * {@code minRetriesPerSecond × window + ratio × first attempts}: a reserve for quiet clients plus a share of the
 * real load, after Finagle's {@code RetryBudget} and Envoy's retry budgets. At 100% failure a client sends at
 * most {@code (1 + ratio)} times its callers' load plus the reserve, whatever {@code max-attempts} says.
 */
public final class RetryBudget {

	private static final int FIRST = 0;

	private static final int RETRY = 1;

	private final Settings settings;

	private final SlidingWindow window;

	private final double reserve;

	private final LongSupplier nanoClock;

	/**
	 * Create a budget.
	 * @param settings its settings
	 * @param nanoClock the time source, {@link System#nanoTime()} in production
	 */
	public RetryBudget(Settings settings, LongSupplier nanoClock) {
		this(settings, window(settings, nanoClock), nanoClock);
	}

	private RetryBudget(Settings settings, SlidingWindow window, LongSupplier nanoClock) {
		this.settings = settings;
		this.window = window;
		this.nanoClock = nanoClock;
		this.reserve = settings.minRetriesPerSecond() * settings.window().toMillis() / 1000.0;
	}

	private static SlidingWindow window(Settings settings, LongSupplier nanoClock) {
		long seconds = Math.max(1, settings.window().toSeconds());
		return new SlidingWindow(settings.window(), (int) Math.min(seconds, 60), 2, nanoClock);
	}

	/**
	 * Return a budget with new settings that keeps this one's window (SPEC §12: a reload carries the budget's
	 * window over), unless the window's length changed: then the counting starts again.
	 * @param settings the new settings
	 * @return this budget when nothing changed, else a budget with the new settings
	 */
	public RetryBudget with(Settings settings) {
		if (settings.equals(this.settings)) {
			return this;
		}
		boolean sameWindow = settings.window().equals(this.settings.window());
		return new RetryBudget(settings, sameWindow ? this.window : window(settings, this.nanoClock), this.nanoClock);
	}

	/**
	 * Record a call's first attempt: it earns {@code ratio} of a retry.
	 */
	public void onFirstAttempt() {
		if (this.settings.enabled()) {
			this.window.add(FIRST);
		}
	}

	/**
	 * Take one retry from the budget.
	 * @return whether the retry may be made
	 */
	public boolean tryRetry() {
		if (!this.settings.enabled()) {
			return true;
		}
		// Whole retries only ("at most": 7.6 allows 7), and the check and the withdrawal as one step, so that
		// concurrent retries cannot both take the last one.
		synchronized (this.window) {
			if (this.window.sumCovering(RETRY) >= (long) Math.floor(allowed())) {
				return false;
			}
			this.window.add(RETRY);
			return true;
		}
	}

	/**
	 * Return how many retries the window still allows.
	 * @return the retries left, never negative
	 */
	public long retriesLeft() {
		return Math.max(0, (long) Math.floor(allowed()) - this.window.sumCovering(RETRY));
	}

	/**
	 * Return the first attempts in the window.
	 * @return the count
	 */
	public long firstAttempts() {
		return this.window.sum(FIRST);
	}

	/**
	 * Return the retries in the window, and in the rest of the second its start falls in.
	 * @return the count
	 */
	public long retries() {
		return this.window.sumCovering(RETRY);
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	private double allowed() {
		return this.reserve + this.settings.ratio() * this.window.sum(FIRST);
	}

	/**
	 * A budget's settings.
	 *
	 * @param enabled whether retries are budgeted at all
	 * @param ratio retries allowed per first attempt in the window
	 * @param minRetriesPerSecond retries allowed per second of the window whatever the load
	 * @param window the sliding window
	 */
	public record Settings(boolean enabled, double ratio, double minRetriesPerSecond, Duration window) {

		/** The defaults: on, 20%, 10 per second, 10 seconds. */
		public static final Settings DEFAULTS = new Settings(true, 0.2, 10, Duration.ofSeconds(10));

	}

}
