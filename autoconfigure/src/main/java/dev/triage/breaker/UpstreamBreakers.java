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

import java.time.Duration;
import java.util.function.Predicate;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

/**
 * Creates one Resilience4j breaker per upstream, named after the Feign client, in the application's
 * registry. With Resilience4j's Spring Boot module, the application's settings are layered over Triage's defaults
 * field by field (see the autoconfigure package's {@code BreakerDefaults}); without it, Triage's defaults apply.
 */
public final class UpstreamBreakers {

	/**
	 * Triage's breaker defaults: a 10s time-based window, at least 10 calls, 50% failures, 5s open, 3 probes.
	 */
	public static final CircuitBreakerConfig DEFAULTS = CircuitBreakerConfig.custom()
		.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
		.slidingWindowSize(10)
		.minimumNumberOfCalls(10)
		.failureRateThreshold(50)
		.waitDurationInOpenState(Duration.ofSeconds(5))
		.permittedNumberOfCallsInHalfOpenState(3)
		.build();

	private final CircuitBreakerRegistry registry;

	private final Predicate<String> userConfigured;

	/**
	 * Create a factory.
	 * @param registry the application's registry
	 * @param userConfigured whether the user configured the breaker of a client name
	 */
	public UpstreamBreakers(CircuitBreakerRegistry registry, Predicate<String> userConfigured) {
		this.registry = registry;
		this.userConfigured = userConfigured;
	}

	/**
	 * Return the breaker of an upstream, creating it when needed.
	 * @param clientName the Feign client name
	 * @return the breaker
	 */
	public Resilience4jUpstreamBreaker forClient(String clientName) {
		// Resilience4j's Spring Boot module creates every configured instance at startup, Triage's included
		// (with Triage's defaults under the application's settings); otherwise the defaults apply unless the
		// application configured the name some other way.
		CircuitBreaker breaker = this.registry.find(clientName)
			.orElseGet(() -> this.userConfigured.test(clientName) ? this.registry.circuitBreaker(clientName)
					: this.registry.circuitBreaker(clientName, DEFAULTS));
		return new Resilience4jUpstreamBreaker(breaker);
	}

}
