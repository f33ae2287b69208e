package dev.triage.overload;

import io.github.resilience4j.ratelimiter.RateLimiter;

/**
 * A {@link RateLimit} backed by a Resilience4j {@link RateLimiter} from the application's registry, so that
 * {@code resilience4j.ratelimiter.instances.<client>} configures it and Resilience4j's endpoints and meters
 * show it.
 */
public final class Resilience4jRateLimit implements RateLimit {

	private final RateLimiter limiter;

	/**
	 * Create an instance.
	 * @param limiter the limiter of one client
	 */
	public Resilience4jRateLimit(RateLimiter limiter) {
		this.limiter = limiter;
	}

	@Override
	public boolean acquire() {
		return this.limiter.acquirePermission();
	}

	@Override
	public String name() {
		return this.limiter.getName();
	}

	@Override
	public int availablePermissions() {
		return this.limiter.getMetrics().getAvailablePermissions();
	}

}
