package dev.triage;

import dev.triage.policy.Rule;

/**
 * What one attempt of a managed call ended in, as a {@link CallObserver} is told: a status, or a transport
 * failure.
 *
 * @param client the client name
 * @param status the HTTP status, 0 for a transport failure
 * @param failure the transport failure, {@code null} when a response came back
 * @param failureClass the bounded class of the outcome
 * @param rule the rule the outcome resolved to, {@code null} for a success
 * @param durationNanos how long the attempt took
 * @param channel the channel the attempt went to, {@code primary} for the client's own URL
 */
public record AttemptOutcome(String client, int status, TransportFailure failure, FailureClass failureClass, Rule rule,
		long durationNanos, String channel) {

	/**
	 * Create the outcome of an attempt on the client's own URL.
	 */
	public AttemptOutcome(String client, int status, TransportFailure failure, FailureClass failureClass, Rule rule,
			long durationNanos) {
		this(client, status, failure, failureClass, rule, durationNanos, OriginalResponse.PRIMARY);
	}

	/**
	 * Return the code tag: the status, or the transport failure key.
	 * @return the code
	 */
	public String code() {
		return (this.failure != null) ? this.failure.key() : Integer.toString(this.status);
	}

}
