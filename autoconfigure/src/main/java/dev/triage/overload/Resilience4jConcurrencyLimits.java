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

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The Resilience4j bulkheads of the clients whose names have one configured
 * ({@code resilience4j.bulkhead.instances.<client>}), taken from the application's registry.
 */
public final class Resilience4jConcurrencyLimits implements ConcurrencyLimits {

	private static final Log logger = LogFactory.getLog(Resilience4jConcurrencyLimits.class);

	private final Supplier<BulkheadRegistry> registry;

	private final Predicate<String> configured;

	private final Map<String, Resilience4jConcurrencyLimit> known = new ConcurrentHashMap<>();

	/** The clients that had none when their runtime was built (a bulkhead added later takes effect at the next start). */
	private final Set<String> without = ConcurrentHashMap.newKeySet();

	/**
	 * Create an instance.
	 * @param registry the application's registry, {@code null} when it has none
	 * @param configured whether the application configured a bulkhead of that name
	 */
	public Resilience4jConcurrencyLimits(Supplier<BulkheadRegistry> registry, Predicate<String> configured) {
		this.registry = registry;
		this.configured = configured;
	}

	@Override
	public ConcurrencyLimit forClient(String client) {
		BulkheadRegistry bulkheads = this.registry.get();
		if (bulkheads == null || !this.configured.test(client)) {
			this.without.add(client);
			return ConcurrencyLimit.NONE;
		}
		return this.known.computeIfAbsent(client, (name) -> new Resilience4jConcurrencyLimit(bulkheads.bulkhead(name)));
	}

	/**
	 * Put the bulkheads in use back into the application's registry after Resilience4j built a new one (on a
	 * refresh), with the new registry's settings: the permits held stay held.
	 */
	public void registryRebuilt() {
		BulkheadRegistry bulkheads = this.registry.get();
		if (bulkheads != null) {
			this.known.forEach((client, limit) -> limit.registryRebuilt(bulkheads, this.configured.test(client)));
			this.without.stream().filter(this.configured).forEach((client) -> {
				if (this.without.remove(client)) {
					logger.warn("A bulkhead for client '" + client + "' (resilience4j.bulkhead.instances." + client
							+ ") was added while the application runs: Triage takes it at the next start");
				}
			});
		}
	}

}
