package dev.triage.breaker;

import dev.triage.policy.BreakerOutcome;

/**
 * The per-upstream breaker as the Feign layer sees it: asked before every attempt, told after it.
 */
public interface UpstreamBreaker {

	/** A breaker that always permits and records nothing. */
	UpstreamBreaker NONE = new UpstreamBreaker() {

		@Override
		public boolean tryAcquire() {
			return true;
		}

		@Override
		public void record(BreakerOutcome outcome, long durationNanos, Throwable failure) {
		}

		@Override
		public boolean isOpen() {
			return false;
		}

		@Override
		public String state() {
			return "NONE";
		}

	};

	/**
	 * Ask for permission to make an attempt. A permitted attempt must be followed by {@link #record}.
	 * @return whether the attempt may reach the wire
	 */
	boolean tryAcquire();

	/**
	 * Record a permitted attempt's outcome as its rule says.
	 * @param outcome how the attempt counts
	 * @param durationNanos how long the attempt took
	 * @param failure what went wrong, for {@link BreakerOutcome#FAILURE}; may be {@code null} otherwise
	 */
	void record(BreakerOutcome outcome, long durationNanos, Throwable failure);

	/**
	 * Return whether the breaker currently refuses calls.
	 * @return whether it is open
	 */
	boolean isOpen();

	/**
	 * Return the breaker's state name, e.g. {@code CLOSED}.
	 * @return the state
	 */
	String state();

}
