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

package dev.triage;

import java.util.Locale;

/**
 * How a managed call ended, as the caller saw it.
 */
public enum CallOutcome {

	/** The call returned what the upstream answered. */
	SUCCESS,

	/** The call threw. */
	FAILURE,

	/** The call failed and a {@link TriageFallback} answered instead: never reported as a success. */
	FALLBACK,

	/** Triage refused the call before the wire (and no fallback answered, or it did: see the record). */
	SHORT_CIRCUITED;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the tag value, e.g. {@code short_circuited}.
	 * @return the lower-case name
	 */
	public String tag() {
		return this.tag;
	}

}
