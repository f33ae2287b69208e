/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.triage.overload;

import java.util.concurrent.locks.LockSupport;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;

/**
 * A {@link RateLimit} backed by a Resilience4j {@link RateLimiter} from the application's registry, so that
 * {@code resilience4j.ratelimiter.instances.<client>} configures it and Resilience4j's endpoints and meters
 * show it.
 */
public final class Resilience4jRateLimit implements RateLimit {

	private final String name;

	/**
	 * Replaced only when a refresh rebuilt the registry with another refresh period for this limiter; {@code null}
	 * while its settings are removed (no limiter, no check).
	 */
	private volatile RateLimiter limiter;

	/**
	 * Create an instance.
	 * @param limiter the limiter of one client
	 */
	public Resilience4jRateLimit(RateLimiter limiter) {
		this.name = limiter.getName();
		this.limiter = limiter;
	}

	@Override
	public boolean acquire() {
		RateLimiter limiter = this.limiter;
		return limiter == null || limiter.acquirePermission();
	}

	/**
	 * Take a permit within the call's time: when the limiter's own timeout is longer than the wait the call allows,
	 * a permit that comes later is not waited for (Resilience4j's estimate of the wait is read first, so that no
	 * permit is reserved and left unused; when another caller took the permit in between, the one reserved instead
	 * is left unused).
	 */
	@Override
	public boolean acquire(long maxWaitNanos) {
		RateLimiter limiter = this.limiter;
		if (limiter == null) {
			return true;
		}
		if (maxWaitNanos >= limiter.getRateLimiterConfig().getTimeoutDuration().toNanos()) {
			return limiter.acquirePermission();
		}
		if (maxWaitNanos < 0 || (limiter instanceof AtomicRateLimiter atomic
				&& atomic.getDetailedMetrics().getNanosToWait() > maxWaitNanos)) {
			return false;
		}
		long wait = limiter.reservePermission();
		if (wait < 0 || wait > maxWaitNanos) {
			return false;
		}
		long until = System.nanoTime() + wait;
		for (long left = wait; left > 0; left = until - System.nanoTime()) {
			LockSupport.parkNanos(left);
			if (Thread.interrupted()) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

	@Override
	public String name() {
		return (this.limiter != null) ? this.name : null;
	}

	@Override
	public int availablePermissions() {
		RateLimiter limiter = this.limiter;
		return (limiter != null) ? limiter.getMetrics().getAvailablePermissions() : -1;
	}

	/**
	 * Return the Resilience4j limiter underneath.
	 * @return the limiter in use, {@code null} while its settings are removed
	 */
	public RateLimiter limiter() {
		return this.limiter;
	}

	/**
	 * Follow the settings of a registry Resilience4j built anew (on a refresh): a new limit or timeout applies to
	 * this limiter, which goes back into the registry; a new refresh period takes the new registry's limiter. Its
	 * settings removed, the client has no limiter (Resilience4j's defaults are not one), until they come back.
	 * @param registry the new registry
	 * @param configured whether the limiter's settings are still there
	 */
	void registryRebuilt(RateLimiterRegistry registry, boolean configured) {
		RateLimiter live = this.limiter;
		if (!configured) {
			this.limiter = null;
			return;
		}
		RateLimiter fresh = registry.rateLimiter(this.name);
		if (live == null) {
			this.limiter = fresh;
			return;
		}
		if (fresh == live) {
			return;
		}
		RateLimiterConfig now = fresh.getRateLimiterConfig();
		RateLimiterConfig was = live.getRateLimiterConfig();
		if (!now.getLimitRefreshPeriod().equals(was.getLimitRefreshPeriod())) {
			this.limiter = fresh;
			return;
		}
		if (now.getLimitForPeriod() != was.getLimitForPeriod()) {
			live.changeLimitForPeriod(now.getLimitForPeriod());
		}
		if (!now.getTimeoutDuration().equals(was.getTimeoutDuration())) {
			live.changeTimeoutDuration(now.getTimeoutDuration());
		}
		registry.replace(live.getName(), live);
	}

}
