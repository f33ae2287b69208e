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
 * The concurrency limit of one client (SPEC §8.5, the source article's "bulkhead"): every attempt runs inside one
 * of its permits.
 */
public interface ConcurrencyLimit {

	/** No limit: every attempt goes, at no cost. */
	ConcurrencyLimit NONE = new ConcurrencyLimit() {

		@Override
		public boolean acquire() {
			return true;
		}

		@Override
		public void release() {
		}

		@Override
		public String name() {
			return "none";
		}

	};

	/**
	 * Take a permit, waiting at most the limit's configured wait.
	 * @return whether a permit was taken
	 */
	boolean acquire();

	/**
	 * Give a permit back: the attempt is over.
	 */
	void release();

	/**
	 * Return the limit's name.
	 * @return the name
	 */
	String name();

}
