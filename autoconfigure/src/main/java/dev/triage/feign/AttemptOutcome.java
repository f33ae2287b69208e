package dev.triage.feign;

import dev.triage.TransportFailure;
import dev.triage.policy.Rule;

/**
 * What one attempt ended in: a status, or a transport failure.
 *
 * @param client the client name
 * @param status the HTTP status, 0 for a transport failure
 * @param failure the transport failure, {@code null} when a response came back
 * @param failureClass a bounded class label: {@code 2xx}, {@code 4xx}, {@code 5xx}, {@code unknown},
 * {@code transport}
 * @param rule the rule the outcome resolved to, {@code null} for a success
 * @param durationNanos how long the attempt took
 */
public record AttemptOutcome(String client, int status, TransportFailure failure, String failureClass, Rule rule,
		long durationNanos) {

	/**
	 * Return the code tag: the status, or the transport failure key.
	 * @return the code
	 */
	public String code() {
		return (this.failure != null) ? this.failure.key() : Integer.toString(this.status);
	}

}
