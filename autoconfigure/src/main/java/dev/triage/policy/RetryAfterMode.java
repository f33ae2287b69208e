package dev.triage.policy;

/**
 * Whether a {@code Retry-After} header decides the wait before the next attempt.
 */
public enum RetryAfterMode {

	/** Wait exactly what the header says, instead of the backoff. */
	HONOR,

	/** Use the backoff whatever the header says. */
	IGNORE

}
