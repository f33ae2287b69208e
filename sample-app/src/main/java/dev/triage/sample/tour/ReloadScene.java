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

package dev.triage.sample.tour;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.clients.CatalogClient;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * SPEC §12: an operator changes the {@code catalog} client's 503 row while the application runs (what
 * {@code /actuator/refresh} does after a file or a ConfigMap changed: a property source changes and Spring Cloud
 * publishes an {@link EnvironmentChangeEvent}). The next call follows the new row, counted at the upstream, and the
 * {@code warehouse} breaker the earlier rows opened stays open: the change restarted nothing. The change is taken
 * back afterwards, the same way.
 */
public class ReloadScene {

	/** The scenario's name. */
	public static final String SCENARIO = "503 row changed at runtime";

	private static final String KEY = "triage.clients.catalog.policies.503.max-attempts";

	private final CatalogClient catalog;

	private final ChaosUpstream upstream;

	private final ManagedClients clients;

	private final CircuitBreakerRegistry breakers;

	private final ConfigHistory history;

	private final ConfigurableApplicationContext context;

	public ReloadScene(CatalogClient catalog, ChaosUpstream upstream, ManagedClients clients,
			CircuitBreakerRegistry breakers, ConfigHistory history, ConfigurableApplicationContext context) {
		this.catalog = catalog;
		this.upstream = upstream;
		this.clients = clients;
		this.breakers = breakers;
		this.history = history;
		this.context = context;
	}

	/**
	 * Play the scene.
	 * @param openBreaker the name of a breaker the earlier rows left open
	 * @return its row
	 */
	public List<Row> play(String openBreaker) {
		List<String> problems = new ArrayList<>();
		CircuitBreaker breaker = this.breakers.circuitBreaker(openBreaker);
		CircuitBreaker.State stateBefore = breaker.getState();
		int tableBefore = this.clients.get("catalog").policy().forStatus(503, "upstream_error").maxAttempts();
		int before = wireOf503();
		long versionBefore = this.history.status().version();
		Map<String, Object> operator = new ConcurrentHashMap<>();
		operator.put(KEY, "1");
		this.context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("tour-operator", operator));
		this.context.publishEvent(new EnvironmentChangeEvent(this.context, Set.of(KEY)));
		long started = System.nanoTime();
		int after = wireOf503();
		Duration waited = Duration.ofNanos(System.nanoTime() - started);
		long versionAfter = this.history.status().version();
		CircuitBreaker.State stateAfter = this.breakers.circuitBreaker(openBreaker).getState();
		// Taken back, so that the rows after this one play the table of application.yml.
		this.context.getEnvironment().getPropertySources().remove("tour-operator");
		this.context.publishEvent(new EnvironmentChangeEvent(this.context, Set.of(KEY)));
		if (before != tableBefore) {
			problems.add("before the change the 503 row allows " + tableBefore + " attempts, " + before + " were sent");
		}
		if (after != 1) {
			problems.add("after the change (max-attempts 1) " + after + " requests were sent");
		}
		if (versionAfter != versionBefore + 1) {
			problems.add("the settings' version should go from " + versionBefore + " to " + (versionBefore + 1)
					+ ", it is " + versionAfter);
		}
		if (stateBefore != CircuitBreaker.State.OPEN || stateAfter != CircuitBreaker.State.OPEN
				|| this.breakers.circuitBreaker(openBreaker) != breaker) {
			problems.add("the " + openBreaker + " breaker should stay OPEN across the change, it went from "
					+ stateBefore + " to " + stateAfter);
		}
		return List.of(new Row(SCENARIO, "503 to all; " + KEY + " 3 -> 1 while running", "5xx 503", after, waited,
				openBreaker + " " + stateAfter, "no",
				before + " attempt(s) before, " + after + " after; settings v" + versionBefore + " -> v" + versionAfter,
				problems));
	}

	private int wireOf503() {
		int before = this.upstream.requests();
		try {
			this.catalog.status(503);
		}
		catch (RuntimeException expected) {
			// Every attempt answered 503: the call fails, what matters is how many reached the upstream.
		}
		return this.upstream.requests() - before;
	}

}
