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

package dev.triage.reload;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What became of the changes to Triage's settings while the application runs (SPEC §12): the version in force
 * (1 at startup, one more per applied change), when it was applied, and the last change refused, if any.
 */
public final class ConfigHistory {

	private final Clock clock;

	private final AtomicLong applied = new AtomicLong();

	private final AtomicLong rejected = new AtomicLong();

	private volatile Status status;

	/**
	 * Start the history with the settings of the startup.
	 * @param clock the wall clock
	 */
	public ConfigHistory(Clock clock) {
		this.clock = clock;
		this.status = new Status(1, clock.instant(), null);
	}

	/**
	 * Record a change put in force.
	 * @return the new version
	 */
	public synchronized long applied() {
		this.applied.incrementAndGet();
		Status now = this.status;
		this.status = new Status(now.version() + 1, this.clock.instant(), now.lastRejected());
		return this.status.version();
	}

	/**
	 * Record a change refused.
	 * @param reason what is wrong with it, in the words of the startup failure
	 */
	public synchronized void rejected(String reason) {
		this.rejected.incrementAndGet();
		Status now = this.status;
		this.status = new Status(now.version(), now.appliedAt(), new Rejection(this.clock.instant(), reason));
	}

	/**
	 * Return the version in force, when it was applied and the last refusal.
	 * @return the status
	 */
	public Status status() {
		return this.status;
	}

	/**
	 * Return how many changes were applied since startup.
	 * @return the count
	 */
	public long appliedCount() {
		return this.applied.get();
	}

	/**
	 * Return how many changes were refused since startup.
	 * @return the count
	 */
	public long rejectedCount() {
		return this.rejected.get();
	}

	/**
	 * The settings in force.
	 *
	 * @param version 1 at startup, one more per applied change
	 * @param appliedAt when they were put in force
	 * @param lastRejected the last change refused, {@code null} for none
	 */
	public record Status(long version, Instant appliedAt, Rejection lastRejected) {
	}

	/**
	 * A change refused.
	 *
	 * @param at when
	 * @param reason what is wrong with it
	 */
	public record Rejection(Instant at, String reason) {
	}

}
