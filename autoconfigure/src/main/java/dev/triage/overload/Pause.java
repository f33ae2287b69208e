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
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An upstream that asked, with {@code Retry-After}, not to be called before a given instant. Other calls are
 * refused at once while it lasts; nobody waits on it. A later {@code Retry-After} extends it, never shortens it.
 */
public final class Pause {

	private final Clock clock;

	private final AtomicLong untilMillis = new AtomicLong();

	private final Runnable onLearnt;

	/**
	 * Create a pause that is not in effect.
	 * @param clock the wall clock
	 */
	public Pause(Clock clock) {
		this(clock, null);
	}

	/**
	 * Create a pause that is not in effect and tells someone when a response extends it.
	 * @param clock the wall clock
	 * @param onLearnt run, on the calling thread, after a response extended the pause; must not block
	 */
	public Pause(Clock clock, Runnable onLearnt) {
		this.clock = clock;
		this.onLearnt = onLearnt;
	}

	/**
	 * Pause the upstream for a while from now, unless it is already paused for longer.
	 * @param duration how long the upstream asked for
	 */
	public void pauseFor(Duration duration) {
		if (extendFor(duration) && this.onLearnt != null) {
			this.onLearnt.run();
		}
	}

	/**
	 * Extend the pause with one learnt elsewhere (another instance of the fleet), without telling anyone.
	 * @param duration how long from now
	 * @return whether the pause now lasts longer than before
	 */
	public boolean extendFor(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return false;
		}
		// Rounded up to the millisecond: a pause never ends before the instant the upstream asked for.
		long until = this.clock.instant().plus(duration).plusNanos(999_999).toEpochMilli();
		return this.untilMillis.getAndAccumulate(until, Math::max) < until;
	}

	/**
	 * Return how long the pause still lasts.
	 * @return the time left, zero when the upstream is not paused
	 */
	public Duration remaining() {
		return Duration.ofMillis(Math.max(0, this.untilMillis.get() - this.clock.millis()));
	}

	/**
	 * Return whether the upstream is paused now.
	 * @return whether calls to it are refused
	 */
	public boolean isPaused() {
		long until = this.untilMillis.get();
		return until != 0 && this.clock.millis() < until;
	}

	/**
	 * Return until when the upstream is paused.
	 * @return the instant, or {@code null} when it is not paused
	 */
	public Instant until() {
		long until = this.untilMillis.get();
		return (until != 0 && this.clock.millis() < until) ? Instant.ofEpochMilli(until) : null;
	}

}
