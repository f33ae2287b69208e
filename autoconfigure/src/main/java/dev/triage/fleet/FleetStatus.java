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

/**
 * Where this instance keeps what it shares with the fleet, and whether it reaches it now.
 */
public interface FleetStatus {

	/** Nothing is shared. */
	FleetStatus LOCAL = new FleetStatus() {

		@Override
		public String store() {
			return "local";
		}

		@Override
		public boolean connected() {
			return false;
		}

		@Override
		public long errors() {
			return 0;
		}

	};

	/**
	 * Return the store.
	 * @return {@code local} or {@code redis}
	 */
	String store();

	/**
	 * Return whether the instance reaches the store now.
	 * @return whether the last command succeeded in time ({@code false} for {@code local})
	 */
	boolean connected();

	/**
	 * Return the Redis commands that failed or took longer than the timeout.
	 * @return the count since startup
	 */
	long errors();

}
