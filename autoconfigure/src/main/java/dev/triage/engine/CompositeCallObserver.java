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

import java.util.List;
import java.util.function.Consumer;

import dev.triage.AttemptOutcome;
import dev.triage.CallRecord;
import dev.triage.CallObserver;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.RetryRecord;
import dev.triage.policy.RetryDecision;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells several observers, in order. An observer that throws does not stop the others or the call.
 */
public final class CompositeCallObserver implements CallObserver {

	private static final Log logger = LogFactory.getLog(CompositeCallObserver.class);

	private final CallObserver[] observers;

	/**
	 * Create a composite.
	 * @param observers the observers, in order
	 */
	public CompositeCallObserver(List<CallObserver> observers) {
		this.observers = observers.toArray(CallObserver[]::new);
	}

	// The two events of every call are told in a loop of their own: a shared loop taking a lambda would
	// allocate one per call. The rarer events share that loop.

	@Override
	public void onAttempt(AttemptOutcome attempt) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onAttempt(attempt);
			}
			catch (RuntimeException ex) {
				failed(observer, "an attempt", ex);
			}
		}
	}

	@Override
	public void onCall(CallRecord call) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onCall(call);
			}
			catch (RuntimeException ex) {
				failed(observer, "a call", ex);
			}
		}
	}

	@Override
	public void onRetryDecision(String client, RetryDecision decision) {
		each("a retry decision", (observer) -> observer.onRetryDecision(client, decision));
	}

	@Override
	public void onRetry(RetryRecord retry) {
		each("a retry", (observer) -> observer.onRetry(retry));
	}

	@Override
	public void onRefusal(String client, Refusal refusal) {
		each("a refusal", (observer) -> observer.onRefusal(client, refusal));
	}

	@Override
	public void onPoison(PoisonRequestEvent event) {
		each("a poison request", (observer) -> observer.onPoison(event));
	}

	private void each(String event, Consumer<CallObserver> action) {
		for (CallObserver observer : this.observers) {
			try {
				action.accept(observer);
			}
			catch (RuntimeException ex) {
				failed(observer, event, ex);
			}
		}
	}

	private static void failed(CallObserver observer, String event, RuntimeException ex) {
		logger.warn("Triage observer " + observer + " failed on " + event, ex);
	}

}
