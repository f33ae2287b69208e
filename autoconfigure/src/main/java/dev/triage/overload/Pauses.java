package dev.triage.overload;

import java.time.Clock;

/**
 * Creates the pause of each channel of each client: a plain local {@link Pause} unless the fleet shares
 * pauses (SPEC §13).
 */
@FunctionalInterface
public interface Pauses {

	/** Every pause is local to this instance. */
	Pauses LOCAL = (client, channel, clock) -> new Pause(clock);

	/**
	 * Create the pause of one channel.
	 * @param client the Feign client name
	 * @param channel the channel name, {@code primary} for the client's own URL
	 * @param clock the wall clock
	 * @return the pause
	 */
	Pause create(String client, String channel, Clock clock);

}
