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
 */
public record Row(String scenario, String upstreamDid, String failureClass, int wire, Duration waited,
		String breakerAfter, String fallback, String callerGot, List<String> disagreements) {

	public boolean agrees() {
		return this.disagreements.isEmpty();
	}

}
