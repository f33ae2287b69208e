package dev.triage.overload;

/**
 * A static limit on the attempts a client sends, taken before every attempt, retries included.
 */
public interface RateLimit {

	/** No limit: every attempt may go. */
	RateLimit NONE = new RateLimit() {

		@Override
		public boolean acquire() {
			return true;
		}

		@Override
		public String name() {
			return null;
		}

		@Override
		public int availablePermissions() {
			return -1;
		}

	};

	/**
	 * Take a permit, waiting at most the limiter's own timeout.
	 * @return whether a permit was given
	 */
	boolean acquire();

	/**
	 * Return the limiter's name.
	 * @return the name, {@code null} for no limit
	 */
	String name();

	/**
	 * Return the permits left in the current period.
	 * @return the permits, -1 for no limit
	 */
	int availablePermissions();

}
