package dev.triage.overload;

/**
 * Finds the static rate limit of a client: Resilience4j's limiter of the same name when the application
 * configured one, else {@link RateLimit#NONE}.
 */
@FunctionalInterface
public interface RateLimits {

	/** No client has a limit. */
	RateLimits NONE = (client) -> RateLimit.NONE;

	/**
	 * Return the limit of a client.
	 * @param client the Feign client name
	 * @return its limit, {@link RateLimit#NONE} when none is configured
	 */
	RateLimit forClient(String client);

}
