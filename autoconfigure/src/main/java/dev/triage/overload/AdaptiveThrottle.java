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
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Client-side adaptive throttling (Google SRE book, "Handling Overload"): over a sliding window the client
 * counts the attempts it was about to send ({@code requests}) and those the upstream did not reject for load
 * ({@code accepts}), and refuses locally with probability
 * {@code min(maxDropProbability, max(0, (requests − k × accepts) / (requests + 1)))}. While at least 1/k of
 * attempts are accepted nothing is refused; a quiet client (below {@code minRequests}) is never throttled; and
 * some traffic always goes through, so the upstream's recovery is seen.
 * <p>
 * An attempt counts once what it ended in is known: when it is refused, or when its answer (or its failure)
 * arrives. An attempt still on its way counts neither as a request nor as an accept: counted as a request when
 * sent, a burst of calls to a healthy upstream that answers in 300 ms read as a rejecting one (every request
 * in flight and no accept yet) and was refused nine times in ten.
 */
public final class AdaptiveThrottle {

	private static final int REQUESTS = 0;

	private static final int ACCEPTS = 1;

	private final Settings settings;

	private final SlidingWindow window;

	private final DoubleSupplier random;

	private final LongSupplier nanoClock;

	/**
	 * Create a throttle.
	 * @param settings its settings
	 * @param nanoClock the time source, {@link System#nanoTime()} in production
	 * @param random uniform random numbers in [0, 1)
	 */
	public AdaptiveThrottle(Settings settings, LongSupplier nanoClock, DoubleSupplier random) {
		this(settings, new SlidingWindow(settings.window(), 12, 2, nanoClock), nanoClock, random);
	}

	private AdaptiveThrottle(Settings settings, SlidingWindow window, LongSupplier nanoClock, DoubleSupplier random) {
		this.settings = settings;
		this.window = window;
		this.nanoClock = nanoClock;
		this.random = random;
	}

	/**
	 * Return a throttle with new settings that keeps this one's window (SPEC §12: a reload carries the throttle's
	 * window over), unless the window's length changed: then the counting starts again.
	 * @param settings the new settings
	 * @return this throttle when nothing changed, else a throttle with the new settings
	 */
	public AdaptiveThrottle with(Settings settings) {
		if (settings.equals(this.settings)) {
			return this;
		}
		SlidingWindow window = settings.window().equals(this.settings.window()) ? this.window
				: new SlidingWindow(settings.window(), 12, 2, this.nanoClock);
		return new AdaptiveThrottle(settings, window, this.nanoClock, this.random);
	}

	/**
	 * Decide about an attempt the client is about to send; a refused one counts as a request at once, one let
	 * through counts when it is {@link #onAnswered answered}.
	 * @return whether it may be sent
	 */
	public boolean admit() {
		if (!this.settings.enabled()) {
			return true;
		}
		long now = this.window.now();
		long requests = this.window.sum(REQUESTS, now);
		if (requests < this.settings.minRequests()) {
			return true;
		}
		double drop = probability(requests, this.window.sum(ACCEPTS, now));
		if (drop <= 0 || this.random.getAsDouble() >= drop) {
			return true;
		}
		this.window.add(REQUESTS, now);
		return false;
	}

	/**
	 * Record what an attempt let through ended in: a request, and an accept when the upstream answered and did not
	 * reject it for load. Also what an attempt that a later protection refused ended in (not accepted).
	 * @param accepted whether it was accepted
	 */
	public void onAnswered(boolean accepted) {
		if (this.settings.enabled()) {
			long now = this.window.now();
			this.window.add(REQUESTS, now);
			if (accepted) {
				this.window.add(ACCEPTS, now);
			}
		}
	}

	/**
	 * Return the probability with which the next attempt would be refused.
	 * @return a probability from 0 to {@code maxDropProbability}
	 */
	public double dropProbability() {
		if (!this.settings.enabled()) {
			return 0;
		}
		long requests = this.window.sum(REQUESTS);
		return (requests < this.settings.minRequests()) ? 0 : probability(requests, this.window.sum(ACCEPTS));
	}

	/**
	 * Return the requests in the window.
	 * @return the count
	 */
	public long requests() {
		return this.window.sum(REQUESTS);
	}

	/**
	 * Return the accepts in the window.
	 * @return the count
	 */
	public long accepts() {
		return this.window.sum(ACCEPTS);
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	private double probability(long requests, long accepts) {
		double p = (requests - this.settings.k() * accepts) / (requests + 1.0);
		return Math.min(this.settings.maxDropProbability(), Math.max(0, p));
	}

	/**
	 * A throttle's settings.
	 *
	 * @param enabled whether the client throttles itself at all
	 * @param k how many requests per accept are tolerated before refusing (2 = refuse once fewer than half are
	 * accepted)
	 * @param window the sliding window
	 * @param minRequests requests the window must hold before anything is refused
	 * @param maxDropProbability the highest share of attempts ever refused
	 */
	public record Settings(boolean enabled, double k, Duration window, long minRequests, double maxDropProbability) {

		/** The defaults: on, k = 2, 2 minutes, 20 requests, at most 90% refused. */
		public static final Settings DEFAULTS = new Settings(true, 2.0, Duration.ofMinutes(2), 20, 0.9);

	}

}
