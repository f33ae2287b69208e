package dev.triage.policy;

import java.util.Locale;

/**
 * How an attempt's outcome counts in the upstream's circuit breaker.
 */
public enum BreakerOutcome {

	/** The upstream failed: counts towards opening the breaker. */
	FAILURE,

	/** The upstream is alive, even if the answer is an error (a 400 proves it answers). */
	SUCCESS,

	/** Not the upstream's doing (a 429, our own pool): not counted either way. */
	IGNORE;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the tag value, e.g. {@code failure}.
	 * @return the lower-case name
	 */
	public String tag() {
		return this.tag;
	}

}
