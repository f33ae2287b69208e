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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.circuitbreaker.event.CircuitBreakerOnStateTransitionEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Creates one Resilience4j breaker per upstream, named after the Feign client, in the application's
 * registry. With Resilience4j's Spring Boot module, the application's settings are layered over Triage's defaults
 * field by field (see the autoconfigure package's {@code BreakerDefaults}); without it, Triage's defaults apply.
 */
public final class UpstreamBreakers {

	private static final Log logger = LogFactory.getLog("dev.triage.calls");

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

	private final LateSettings lateConfig;

	/** The breakers in use, by name. */
	private final Map<String, Known> known = new ConcurrentHashMap<>();

	/**
	 * Create a factory.
	 * @param registry the application's registry
	 * @param userConfigured whether the user configured the breaker of a client name
	 */
	public UpstreamBreakers(CircuitBreakerRegistry registry, Predicate<String> userConfigured) {
		this(registry, userConfigured, (name) -> null);
	}

	/**
	 * Create a factory that layers the settings of a breaker met after startup.
	 * @param registry the application's registry
	 * @param userConfigured whether the user configured the breaker of a client name
	 * @param lateConfig the layered settings of a breaker met after startup, {@code null} when it was layered at
	 * startup or there is nothing to layer
	 */
	public UpstreamBreakers(CircuitBreakerRegistry registry, Predicate<String> userConfigured,
			LateSettings lateConfig) {
		this.registry = registry;
		this.userConfigured = userConfigured;
		this.lateConfig = lateConfig;
	}

	/**
	 * Return the breaker of an upstream, creating it when needed.
	 * @param clientName the Feign client name
	 * @return the breaker
	 */
	public Resilience4jUpstreamBreaker forClient(String clientName) {
		return forChannel(clientName, clientName, null);
	}

	/**
	 * Return the breaker of one of a client's upstreams, creating it when needed. Its state transitions are
	 * logged once each on {@code dev.triage.calls}: WARN when it opens, INFO otherwise.
	 * @param breakerName the breaker's name
	 * @param client the client name
	 * @param channel the channel name, {@code null} for the client's own breaker
	 * @return the breaker
	 */
	public synchronized Resilience4jUpstreamBreaker forChannel(String breakerName, String client, String channel) {
		Known known = this.known.get(breakerName);
		if (known != null) {
			return known.breaker();
		}
		// Resilience4j's Spring Boot module creates every configured instance at startup, Triage's included
		// (with Triage's defaults under the application's settings). A breaker met later (an HTTP service
		// client's) gets its settings layered the same way now, replacing the one created from the application's
		// settings alone. Without the module the defaults apply unless the application configured the name.
		CircuitBreaker breaker = breaker(breakerName);
		watch(breaker, client, channel);
		Resilience4jUpstreamBreaker upstream = new Resilience4jUpstreamBreaker(breaker);
		this.known.put(breakerName, new Known(upstream, client, channel));
		return upstream;
	}

	private CircuitBreaker breaker(String name) {
		CircuitBreakerConfig late = this.lateConfig.of(name);
		if (late == null) {
			return this.registry.find(name)
				.orElseGet(() -> this.userConfigured.test(name) ? this.registry.circuitBreaker(name)
						: this.registry.circuitBreaker(name, DEFAULTS));
		}
		if (this.registry.find(name).isEmpty()) {
			return this.registry.circuitBreaker(name, late);
		}
		CircuitBreaker layered = CircuitBreaker.of(name, late, this.registry.getTags());
		this.registry.replace(name, layered);
		return layered;
	}

	/**
	 * Remove the breaker of a channel that is no longer configured, so that the registry, its meters and health
	 * no longer show it.
	 * @param breakerName the breaker's name
	 */
	public synchronized void remove(String breakerName) {
		this.known.remove(breakerName);
		this.lateConfig.removed(breakerName);
		this.registry.remove(breakerName);
	}

	/**
	 * Put the breakers in use back into the application's registry after Resilience4j built a new one (its
	 * refresh-scoped registry, on a refresh of Spring Cloud Context), so that the registry, its meters, health and
	 * endpoints keep showing the breakers that decide. A breaker whose settings the new registry changed is
	 * replaced by the new registry's, with its state carried over: open stays open for the whole of its new wait,
	 * counted from the change (SPEC §12); its window starts empty.
	 */
	public synchronized void registryRebuilt() {
		this.known.forEach((name, known) -> {
			CircuitBreaker live = known.breaker().circuitBreaker();
			CircuitBreaker fresh = this.registry.find(name).orElse(null);
			if (fresh == live) {
				return;
			}
			if (fresh == null) {
				this.registry.circuitBreaker(name, live.getCircuitBreakerConfig());
			}
			if (fresh == null || Settings.of(fresh).equals(Settings.of(live))) {
				this.registry.replace(name, live);
				return;
			}
			carryState(live, fresh);
			watch(fresh, known.client(), known.channel());
			known.breaker().use(fresh);
			logger.info("triage breaker client=" + known.client()
					+ ((known.channel() != null) ? " channel=" + known.channel() : "") + " breaker=" + name
					+ " settings changed by a refresh, state=" + fresh.getState() + " carried over");
		});
	}

	private static void carryState(CircuitBreaker from, CircuitBreaker to) {
		switch (from.getState()) {
			case OPEN -> to.transitionToOpenState();
			case HALF_OPEN -> {
				to.transitionToOpenState();
				to.transitionToHalfOpenState();
			}
			case FORCED_OPEN -> to.transitionToForcedOpenState();
			case DISABLED -> to.transitionToDisabledState();
			case METRICS_ONLY -> to.transitionToMetricsOnlyState();
			default -> {
			}
		}
	}

	private void watch(CircuitBreaker breaker, String client, String channel) {
		// The window of the state the breaker is in: Resilience4j gives a closed or half-open state a new, empty
		// window, so by the time a transition is published the window that decided it (three half-open calls that
		// closed the breaker) is no longer the breaker's.
		AtomicReference<CircuitBreaker.Metrics> window = new AtomicReference<>(breaker.getMetrics());
		breaker.getEventPublisher()
			.onStateTransition((event) -> transition(breaker, client, channel, event,
					window.getAndSet(breaker.getMetrics())))
			.onReset((event) -> window.set(breaker.getMetrics()));
	}

	/**
	 * Log a transition with the window of the state the breaker left.
	 */
	private static void transition(CircuitBreaker breaker, String client, String channel,
			CircuitBreakerOnStateTransitionEvent event, CircuitBreaker.Metrics metrics) {
		CircuitBreaker.State to = event.getStateTransition().getToState();
		// An outage is one event (SPEC §7): the breaker opening is its WARN line; opening again after its half-open
		// probes failed is the same outage, and says so at INFO, as the half-open between.
		boolean opened = (to == CircuitBreaker.State.OPEN || to == CircuitBreaker.State.FORCED_OPEN)
				&& event.getStateTransition().getFromState() != CircuitBreaker.State.HALF_OPEN;
		if (!(opened ? logger.isWarnEnabled() : logger.isInfoEnabled())) {
			return;
		}
		String line = "triage breaker client=" + client + ((channel != null) ? " channel=" + channel : "")
				+ " breaker=" + breaker.getName() + " from=" + event.getStateTransition().getFromState() + " to=" + to
				+ " failure_rate=" + rate(metrics.getFailureRate()) + " slow_call_rate="
				+ rate(metrics.getSlowCallRate()) + " calls=" + metrics.getNumberOfBufferedCalls();
		if (opened) {
			logger.warn(line);
		}
		else {
			logger.info(line);
		}
	}

	private static String rate(float rate) {
		return (rate < 0) ? "-" : Math.round(rate * 10) / 10.0 + "%";
	}


	/**
	 * A breaker in use and whose it is.
	 */
	private record Known(Resilience4jUpstreamBreaker breaker, String client, String channel) {
	}

	/**
	 * The settings that make two breakers behave alike (the exception predicates aside: Triage records its own
	 * verdicts).
	 */
	private record Settings(CircuitBreakerConfig.SlidingWindowType windowType, int windowSize, int minimumCalls,
			float failureRate, float slowCallRate, Duration slowCall, int halfOpenCalls, long firstWait,
			long secondWait, boolean automaticHalfOpen, Duration maxHalfOpenWait) {

		static Settings of(CircuitBreaker breaker) {
			CircuitBreakerConfig config = breaker.getCircuitBreakerConfig();
			return new Settings(config.getSlidingWindowType(), config.getSlidingWindowSize(),
					config.getMinimumNumberOfCalls(), config.getFailureRateThreshold(),
					config.getSlowCallRateThreshold(), config.getSlowCallDurationThreshold(),
					config.getPermittedNumberOfCallsInHalfOpenState(),
					config.getWaitIntervalFunctionInOpenState().apply(1),
					config.getWaitIntervalFunctionInOpenState().apply(2),
					config.isAutomaticTransitionFromOpenToHalfOpenEnabled(), config.getMaxWaitDurationInHalfOpenState());
		}

	}

	/**
	 * The settings of a breaker met after startup, layered over Triage's defaults as the ones of startup were.
	 */
	@FunctionalInterface
	public interface LateSettings {

		/**
		 * Return the layered settings of a breaker.
		 * @param name the breaker's name
		 * @return the settings, {@code null} when they were layered at startup or there is nothing to layer
		 */
		CircuitBreakerConfig of(String name);

		/**
		 * Forget a breaker no longer in use, so that a registry built later (a refresh) does not bring it back.
		 * @param name the breaker's name
		 */
		default void removed(String name) {
		}

	}

}
