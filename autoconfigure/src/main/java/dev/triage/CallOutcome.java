package dev.triage;

import java.util.Locale;

/**
 * How a managed call ended, as the caller saw it.
 */
public enum CallOutcome {

	/** The call returned what the upstream answered. */
	SUCCESS,

	/** The call threw. */
	FAILURE,

	/** The call failed and a {@link TriageFallback} answered instead: never reported as a success. */
	FALLBACK,

	/** Triage refused the call before the wire (and no fallback answered, or it did: see the record). */
	SHORT_CIRCUITED;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the tag value, e.g. {@code short_circuited}.
	 * @return the lower-case name
	 */
	public String tag() {
		return this.tag;
	}

}
