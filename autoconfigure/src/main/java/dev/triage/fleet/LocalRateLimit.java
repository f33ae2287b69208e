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

import java.time.Duration;
import java.util.function.LongSupplier;

import dev.triage.overload.RateLimit;

/**
 * An instance's own share of a fleet rate limit: {@code permits} per period, counted in fixed periods of the
 * local clock. Used when the fleet shares nothing and, with Redis, while Redis cannot be reached.
 */
public final class LocalRateLimit implements RateLimit {

	private final String name;

	private final int permits;

	private final long periodNanos;

	private final LongSupplier nanoTime;

	private long periodStart;

	private int used;

	private boolean started;

	/**
	 * Create a limit.
	 * @param name the client name
	 * @param permits the attempts allowed per period
	 * @param period the period
	 * @param nanoTime the monotonic clock
	 */
	public LocalRateLimit(String name, int permits, Duration period, LongSupplier nanoTime) {
		this.name = name;
		this.permits = permits;
		this.periodNanos = period.toNanos();
		this.nanoTime = nanoTime;
	}

	@Override
	public synchronized boolean acquire() {
		roll(this.nanoTime.getAsLong());
		if (this.used < this.permits) {
			this.used++;
			return true;
		}
		return false;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public synchronized int availablePermissions() {
		roll(this.nanoTime.getAsLong());
		return this.permits - this.used;
	}

	private void roll(long now) {
		if (!this.started || now - this.periodStart >= this.periodNanos) {
			this.started = true;
			this.periodStart = now;
			this.used = 0;
		}
	}

}
