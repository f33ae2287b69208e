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
