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

/**
 * A static limit on the attempts a client sends, taken before every attempt, retries included.
 */
public interface RateLimit {

	/** No limit: every attempt may go. */
	RateLimit NONE = new RateLimit() {

		@Override
		public boolean acquire() {
			return true;
		}

		@Override
		public String name() {
			return null;
		}

		@Override
		public int availablePermissions() {
			return -1;
		}

	};

	/**
	 * Take a permit, waiting at most the limiter's own timeout.
	 * @return whether a permit was given
	 */
	boolean acquire();

	/**
	 * Take a permit, waiting at most the limiter's own timeout and never longer than the call has left: a permit
	 * that could only come later is not waited for.
	 * @param maxWaitNanos the longest wait the call allows
	 * @return whether a permit was given within that wait
	 */
	default boolean acquire(long maxWaitNanos) {
		return acquire();
	}

	/**
	 * Return the limiter's name.
	 * @return the name, {@code null} for no limit
	 */
	String name();

	/**
	 * Return the permits left in the current period.
	 * @return the permits, -1 for no limit
	 */
	int availablePermissions();

}
