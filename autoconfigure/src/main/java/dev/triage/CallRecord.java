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

import java.time.Duration;

import dev.triage.policy.RetryDecision;

/**
 * What one managed call ended in, as a {@link CallObserver} is told: Triage's meters and call log are built
 * on it, and applications may observe it too.
 *
 * @param client the client name
 * @param methodKey the Feign method key
 * @param requestLine the method and URL of the last attempt, query values masked; {@code null} on success or
 * when nothing was attempted
 * @param outcome how the call ended
 * @param failureClass the class of the final failure, {@link FailureClass#NONE} on success
 * @param code the status or transport failure key of the final failure, {@code none} on success
 * @param attempts the attempts that reached the wire
 * @param alert whether the final failure is alert-worthy
 * @param elapsed the call's total time
 * @param failure the final failure, {@code null} on success
 * @param retrySuppressed why a retry the rule allowed was not made, {@code null} when none was suppressed
 * @param channel the channel of the last attempt, {@code primary} for the client's own URL; {@code null} for a
 * client without other channels
 * @param fallbackType the type of what the fallback returned (its simple class name, {@code null} when it
 * returned {@code null}, {@code void} for a void method), never its content; {@code null} when no fallback
 * answered
 */
public record CallRecord(String client, String methodKey, String requestLine, CallOutcome outcome, FailureClass failureClass,
		String code, int attempts, boolean alert, Duration elapsed, UpstreamException failure,
		RetryDecision.Suppression retrySuppressed, String channel, String fallbackType) {

	/**
	 * Create the record of a call whose fallback's answer is not told.
	 */
	public CallRecord(String client, String methodKey, String requestLine, CallOutcome outcome, FailureClass failureClass,
			String code, int attempts, boolean alert, Duration elapsed, UpstreamException failure,
			RetryDecision.Suppression retrySuppressed, String channel) {
		this(client, methodKey, requestLine, outcome, failureClass, code, attempts, alert, elapsed, failure,
				retrySuppressed, channel, null);
	}

	/**
	 * Create the record of a call of a client without other channels.
	 */
	public CallRecord(String client, String methodKey, String requestLine, CallOutcome outcome, FailureClass failureClass,
			String code, int attempts, boolean alert, Duration elapsed, UpstreamException failure,
			RetryDecision.Suppression retrySuppressed) {
		this(client, methodKey, requestLine, outcome, failureClass, code, attempts, alert, elapsed, failure,
				retrySuppressed, null, null);
	}

}
