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

package dev.triage.sample.tour;

import java.time.Duration;
import java.util.List;

/**
 * One line of the tour: what the upstream did, what Triage made of it, what the caller got, and where that
 * disagrees with the policy table.
 *
 * @param scenario the scenario
 * @param upstreamDid what the upstream (or gateway) did
 * @param failureClass the final class and code, as Triage reported them
 * @param wire requests that reached the upstream (or gateway), counted there
 * @param waited the call's total time
 * @param breakerAfter the client's breaker state after the call
 * @param fallback whether a fallback answered, and with what
 * @param callerGot what the caller got back
 * @param disagreements where the call behaved differently from the policy table; empty when it agreed
 * @param skipped why the scenario was not played, {@code null} when it was
 */
public record Row(String scenario, String upstreamDid, String failureClass, int wire, Duration waited,
		String breakerAfter, String fallback, String callerGot, List<String> disagreements, String skipped) {

	/**
	 * A played row.
	 */
	public Row(String scenario, String upstreamDid, String failureClass, int wire, Duration waited,
			String breakerAfter, String fallback, String callerGot, List<String> disagreements) {
		this(scenario, upstreamDid, failureClass, wire, waited, breakerAfter, fallback, callerGot, disagreements, null);
	}

	/**
	 * A scenario that could not be played here, and what it needs.
	 * @param scenario the scenario
	 * @param reason why it was not played
	 * @param howToPlay what it needs
	 * @return the row
	 */
	public static Row skipped(String scenario, String reason, String howToPlay) {
		return new Row(scenario, "skipped: " + reason, "-", 0, Duration.ZERO, "-", "-", howToPlay, List.of(), reason);
	}

	public boolean agrees() {
		return this.disagreements.isEmpty();
	}

	public boolean played() {
		return this.skipped == null;
	}

}
