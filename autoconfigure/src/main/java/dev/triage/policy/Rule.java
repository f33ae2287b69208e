package dev.triage.policy;

import java.time.Duration;

/**
 * A fully resolved treatment for one kind of outcome. Immutable; built once at startup.
 *
 * @param maxAttempts total attempts including the first; 1 means never retried
 * @param backoff the wait between attempts when no {@code Retry-After} applies
 * @param retryAfter whether a {@code Retry-After} header decides the wait
 * @param retryAfterMax the longest {@code Retry-After} that is still retried, {@code null} for no limit
 * @param idempotentOnly whether only idempotent requests (or requests with {@code Idempotency-Key}) are retried
 * @param breaker how the outcome counts in the upstream's breaker
 * @param alert whether a final outcome of this kind is alert-worthy
 * @param fallback whether the fallback is called for a final outcome of this kind
 */
public record Rule(int maxAttempts, Backoff backoff, RetryAfterMode retryAfter, Duration retryAfterMax,
		boolean idempotentOnly, BreakerOutcome breaker, boolean alert, boolean fallback) {

	/**
	 * Return whether this rule ever retries.
	 * @return whether more than one attempt is allowed
	 */
	public boolean retries() {
		return this.maxAttempts > 1;
	}

}
