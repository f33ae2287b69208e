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

package dev.triage.metrics;

import dev.triage.engine.ManagedClient;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.Overload;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Gauges of each managed client's overload protection, read when scraped, from the moment the client exists:
 * <ul>
 * <li>{@code triage.throttle.drop.probability}: client; the share of attempts throttling refuses now</li>
 * <li>{@code triage.retry.budget.remaining}: client; retries the budget still allows in its window</li>
 * <li>{@code triage.paused}: client; 1 while the upstream is paused by a {@code Retry-After}, else 0</li>
 * </ul>
 */
public final class OverloadMetrics implements MeterBinder {

	private final ManagedClients clients;

	/**
	 * Create the binder.
	 * @param clients the managed clients
	 */
	public OverloadMetrics(ManagedClients clients) {
		this.clients = clients;
	}

	/**
	 * Registers the gauges of every client that exists now, and of each client created later (an HTTP service
	 * client made with {@code createClient} at runtime, a Spring Boot 4 group's client created on first use) when
	 * it is created: each client's once.
	 */
	@Override
	public void bindTo(MeterRegistry registry) {
		this.clients.eachClient((client) -> bind(registry, client));
	}

	/**
	 * Each gauge reads the runtime in force when scraped: a reload (SPEC §12) may have replaced it.
	 */
	private static void bind(MeterRegistry registry, ManagedClient client) {
		String name = client.name();
		Gauge.builder("triage.throttle.drop.probability", client, (c) -> overload(c).throttle().dropProbability())
			.description("Share of attempts adaptive throttling refuses now")
			.tag("client", name)
			.register(registry);
		Gauge.builder("triage.retry.budget.remaining", client, (c) -> overload(c).budget().retriesLeft())
			.description("Retries the retry budget still allows in its window")
			.tag("client", name)
			.register(registry);
		Gauge.builder("triage.paused", client, (c) -> overload(c).pause().isPaused() ? 1 : 0)
			.description("1 while the upstream is paused by a Retry-After, else 0")
			.tag("client", name)
			.register(registry);
	}

	private static Overload overload(ManagedClient client) {
		return client.runtime().overload();
	}

}
