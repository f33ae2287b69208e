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

package dev.triage.breaker;

import java.util.concurrent.TimeUnit;

import dev.triage.policy.BreakerOutcome;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * An {@link UpstreamBreaker} backed by a Resilience4j {@link CircuitBreaker}. Triage decides what counts:
 * failures are recorded with {@code onError}, successes with {@code onSuccess}, and ignored outcomes only
 * give back their half-open permit.
 */
public final class Resilience4jUpstreamBreaker implements UpstreamBreaker {

	/** Replaced only when a refresh rebuilt the registry with other settings for this breaker. */
	private volatile CircuitBreaker circuitBreaker;

	/**
	 * Create an instance.
	 * @param circuitBreaker the breaker of one upstream
	 */
	public Resilience4jUpstreamBreaker(CircuitBreaker circuitBreaker) {
		this.circuitBreaker = circuitBreaker;
	}

	@Override
	public boolean tryAcquire() {
		return this.circuitBreaker.tryAcquirePermission();
	}

	@Override
	public void record(BreakerOutcome outcome, long durationNanos, Throwable failure) {
		switch (outcome) {
			case FAILURE -> this.circuitBreaker.onError(durationNanos, TimeUnit.NANOSECONDS,
					(failure != null) ? failure : new IllegalStateException("upstream failure"));
			case SUCCESS -> this.circuitBreaker.onSuccess(durationNanos, TimeUnit.NANOSECONDS);
			case IGNORE -> this.circuitBreaker.releasePermission();
		}
	}

	@Override
	public boolean isOpen() {
		CircuitBreaker.State state = this.circuitBreaker.getState();
		return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
	}

	@Override
	public String state() {
		return this.circuitBreaker.getState().name();
	}

	/**
	 * Return the Resilience4j breaker underneath.
	 * @return the circuit breaker
	 */
	public CircuitBreaker circuitBreaker() {
		return this.circuitBreaker;
	}

	void use(CircuitBreaker circuitBreaker) {
		this.circuitBreaker = circuitBreaker;
	}

}
