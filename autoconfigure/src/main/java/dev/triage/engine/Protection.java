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

package dev.triage.engine;

/**
 * One of the protections an attempt passes: asked before the attempt (it may refuse it, nothing reaches the
 * wire), told when a later protection refused (to give back what it took), and told what the attempt ended in,
 * twice: when its status is known ({@link #answered}) and when the attempt is over ({@link #settled}: for a 2xx,
 * once its body has arrived). The {@link Engine} runs them in one fixed order; this is Failsafe's
 * {@code PolicyExecutor} shape ({@code preExecute}/{@code postExecute}) for Triage's protections.
 */
interface Protection {

	/**
	 * Let the attempt through, or refuse it.
	 * @param attempt the attempt
	 * @return the refusal, {@code null} to let it through
	 */
	RefusedException before(Attempt attempt);

	/**
	 * A protection after this one refused the attempt: give back what {@link #before} took.
	 * @param attempt the attempt
	 */
	default void refused(Attempt attempt) {
	}

	/**
	 * The attempt got a status, or failed without one.
	 * @param attempt the attempt
	 * @param outcome what it ended in
	 */
	default void answered(Attempt attempt, Outcome outcome) {
	}

	/**
	 * The attempt is over: for a 2xx its body arrived (or broke off: then {@code outcome} is a transport failure).
	 * @param attempt the attempt
	 * @param outcome what it ended in
	 */
	default void settled(Attempt attempt, Outcome outcome) {
	}

}
