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

import dev.triage.policy.RetryDecision;

/**
 * Told what happens inside managed calls: Triage's meters and call log implement it, and so may an application
 * (declare a bean; every observer is told, in order, and one that throws does not stop the others or the
 * call). Called on the calling thread: keep it quick.
 */
public interface CallObserver {

	/** An observer that does nothing. */
	CallObserver NONE = new CallObserver() {
	};

	/**
	 * One attempt finished.
	 * @param attempt what the attempt ended in
	 */
	default void onAttempt(AttemptOutcome attempt) {
	}

	/**
	 * After a failed attempt, a retry was decided for or against.
	 * @param client the client name
	 * @param decision the decision
	 */
	default void onRetryDecision(String client, RetryDecision decision) {
	}

	/**
	 * A failed attempt is retried: told after {@link #onRetryDecision}, before the wait.
	 * @param retry the failed attempt and the wait before the next one
	 */
	default void onRetry(RetryRecord retry) {
	}

	/**
	 * An attempt was refused before the wire.
	 * @param client the client name
	 * @param refusal why
	 */
	default void onRefusal(String client, Refusal refusal) {
	}

	/**
	 * A request became poison (published once).
	 * @param event the event
	 */
	default void onPoison(PoisonRequestEvent event) {
	}

	/**
	 * A call finished, successfully, by a fallback, or by throwing.
	 * @param call what the call ended in
	 */
	default void onCall(CallRecord call) {
	}

}
