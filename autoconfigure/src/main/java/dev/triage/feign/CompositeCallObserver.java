package dev.triage.feign;

import java.util.List;

import dev.triage.policy.RetryDecision;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells several observers, in order. An observer that throws does not stop the others or the call.
 */
public final class CompositeCallObserver implements CallObserver {

	private static final Log logger = LogFactory.getLog(CompositeCallObserver.class);

	private final List<CallObserver> observers;

	/**
	 * Create a composite.
	 * @param observers the observers, in order
	 */
	public CompositeCallObserver(List<CallObserver> observers) {
		this.observers = List.copyOf(observers);
	}

	@Override
	public void onAttempt(AttemptOutcome attempt) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onAttempt(attempt);
			}
			catch (RuntimeException ex) {
				logger.warn("Triage observer " + observer + " failed on an attempt", ex);
			}
		}
	}

	@Override
	public void onRetryDecision(String client, RetryDecision decision) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onRetryDecision(client, decision);
			}
			catch (RuntimeException ex) {
				logger.warn("Triage observer " + observer + " failed on a retry decision", ex);
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
				logger.warn("Triage observer " + observer + " failed on a call", ex);
			}
		}
	}

}
