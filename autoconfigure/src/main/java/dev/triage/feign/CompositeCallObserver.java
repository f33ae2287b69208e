package dev.triage.feign;

import java.util.List;

import dev.triage.AttemptOutcome;
import dev.triage.CallRecord;
import dev.triage.CallObserver;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
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

	// One loop per event rather than one shared loop taking a lambda: these run on every call, and a capturing
	// lambda is an allocation each time.

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
	public void onRetryDecision(String client, RetryDecision decision) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onRetryDecision(client, decision);
			}
			catch (RuntimeException ex) {
				failed(observer, "a retry decision", ex);
			}
		}
	}

	@Override
	public void onRefusal(String client, Refusal refusal) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onRefusal(client, refusal);
			}
			catch (RuntimeException ex) {
				failed(observer, "a refusal", ex);
			}
		}
	}

	@Override
	public void onPoison(PoisonRequestEvent event) {
		for (CallObserver observer : this.observers) {
			try {
				observer.onPoison(event);
			}
			catch (RuntimeException ex) {
				failed(observer, "a poison request", ex);
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

	private static void failed(CallObserver observer, String event, RuntimeException ex) {
		logger.warn("Triage observer " + observer + " failed on " + event, ex);
	}

}
