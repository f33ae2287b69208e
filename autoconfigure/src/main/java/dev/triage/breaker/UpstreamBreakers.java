package dev.triage.breaker;

import java.time.Duration;
import java.util.function.Predicate;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

/**
 * Creates one Resilience4j breaker per upstream, named after the Feign client, in the application's
 * registry. A breaker the user configured ({@code resilience4j.circuitbreaker.instances.<name>} or
 * {@code configs.default}) keeps that configuration; otherwise Triage's defaults apply.
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
		CircuitBreaker breaker = this.userConfigured.test(clientName) ? this.registry.circuitBreaker(clientName)
				: this.registry.circuitBreaker(clientName, DEFAULTS);
		return new Resilience4jUpstreamBreaker(breaker);
	}

}
