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

import java.util.Locale;

/**
 * How an attempt's outcome counts in the upstream's circuit breaker.
 */
public enum BreakerOutcome {

	/** The upstream failed: counts towards opening the breaker. */
	FAILURE,

	/** The upstream is alive, even if the answer is an error (a 400 proves it answers). */
	SUCCESS,

	/** Not the upstream's doing (a 429, our own pool): not counted either way. */
	IGNORE;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the tag value, e.g. {@code failure}.
	 * @return the lower-case name
	 */
	public String tag() {
		return this.tag;
	}

}
