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

package dev.triage.breaker;

import dev.triage.policy.BreakerOutcome;

/**
 * The per-upstream breaker as the Feign layer sees it: asked before every attempt, told after it.
 */
public interface UpstreamBreaker {

	/** A breaker that always permits and records nothing. */
	UpstreamBreaker NONE = new UpstreamBreaker() {

		@Override
		public boolean tryAcquire() {
			return true;
		}

		@Override
		public void record(BreakerOutcome outcome, long durationNanos, Throwable failure) {
		}

		@Override
		public boolean isOpen() {
			return false;
		}

		@Override
		public String state() {
			return "NONE";
		}

	};

	/**
	 * Ask for permission to make an attempt. A permitted attempt must be followed by {@link #record}.
	 * @return whether the attempt may reach the wire
	 */
	boolean tryAcquire();

	/**
	 * Record a permitted attempt's outcome as its rule says.
	 * @param outcome how the attempt counts
	 * @param durationNanos how long the attempt took
	 * @param failure what went wrong, for {@link BreakerOutcome#FAILURE}; may be {@code null} otherwise
	 */
	void record(BreakerOutcome outcome, long durationNanos, Throwable failure);

	/**
	 * Return whether the breaker currently refuses calls.
	 * @return whether it is open
	 */
	boolean isOpen();

	/**
	 * Return the breaker's state name, e.g. {@code CLOSED}.
	 * @return the state
	 */
	String state();

}
