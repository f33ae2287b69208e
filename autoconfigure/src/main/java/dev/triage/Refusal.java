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
 * Why Triage refused an attempt before it reached the wire. A refused call gets
 * {@link UpstreamUnavailableException} (or the fallback with it); a refused retry ends the call with its last
 * real outcome.
 */
public enum Refusal {

	/** The upstream's (or every channel's) circuit breaker is open. */
	BREAKER_OPEN,

	/** The upstream asked, with {@code Retry-After}, not to be called before a later instant. */
	PAUSED,

	/** Adaptive throttling: the upstream has been rejecting this client's load. */
	THROTTLED,

	/** The client's Resilience4j rate limiter had no permit within its timeout. */
	RATE_LIMITED,

	/** The client's Resilience4j bulkhead had no free permit within its wait. */
	BULKHEAD_FULL,

	/** The same request kept failing while the upstream answered others: it is a poison request. */
	POISON;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the tag value used in metrics and logs, e.g. {@code breaker_open}.
	 * @return the lower-case name
	 */
	public String tag() {
		return this.tag;
	}

}
