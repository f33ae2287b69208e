package dev.triage.fleet;

/**
 * Where this instance keeps what it shares with the fleet, and whether it reaches it now.
 */
public interface FleetStatus {

	/** Nothing is shared. */
	FleetStatus LOCAL = new FleetStatus() {

		@Override
		public String store() {
			return "local";
		}

		@Override
		public boolean connected() {
			return false;
		}

		@Override
		public long errors() {
			return 0;
		}

	};

	/**
	 * Return the store.
	 * @return {@code local} or {@code redis}
	 */
	String store();

	/**
	 * Return whether the instance reaches the store now.
	 * @return whether the last command succeeded in time ({@code false} for {@code local})
	 */
	boolean connected();

	/**
	 * Return the Redis commands that failed or took longer than the timeout.
	 * @return the count since startup
	 */
	long errors();

}
