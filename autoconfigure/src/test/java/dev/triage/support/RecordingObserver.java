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

package dev.triage.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.AttemptOutcome;
import dev.triage.CallObserver;
import dev.triage.CallRecord;
import dev.triage.policy.RetryDecision;

/**
 * Keeps everything Triage reports, for assertions.
 */
public class RecordingObserver implements CallObserver {

	public final List<AttemptOutcome> attempts = new CopyOnWriteArrayList<>();

	public final List<RetryDecision> decisions = new CopyOnWriteArrayList<>();

	public final List<CallRecord> calls = new CopyOnWriteArrayList<>();

	@Override
	public void onAttempt(AttemptOutcome attempt) {
		this.attempts.add(attempt);
	}

	@Override
	public void onRetryDecision(String client, RetryDecision decision) {
		this.decisions.add(decision);
	}

	@Override
	public void onCall(CallRecord call) {
		this.calls.add(call);
	}

	public void clear() {
		this.attempts.clear();
		this.decisions.clear();
		this.calls.clear();
	}

}
