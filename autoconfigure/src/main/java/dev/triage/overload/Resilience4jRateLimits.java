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

import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The Resilience4j rate limiters of the clients whose names have one configured
 * ({@code resilience4j.ratelimiter.instances.<client>}), taken from the application's registry.
 */
public final class Resilience4jRateLimits implements RateLimits {

	private static final Log logger = LogFactory.getLog(Resilience4jRateLimits.class);

	private final Supplier<RateLimiterRegistry> registry;

	private final Predicate<String> configured;

	private final Map<String, Resilience4jRateLimit> known = new ConcurrentHashMap<>();

	/** The clients that had none when their runtime was built (a rate limiter added later takes effect at the next start). */
	private final Set<String> without = ConcurrentHashMap.newKeySet();

	/**
	 * Create an instance.
	 * @param registry the application's registry, {@code null} when it has none
	 * @param configured whether the application configured a limiter of that name
	 */
	public Resilience4jRateLimits(Supplier<RateLimiterRegistry> registry, Predicate<String> configured) {
		this.registry = registry;
		this.configured = configured;
	}

	@Override
	public RateLimit forClient(String client) {
		RateLimiterRegistry limiters = this.registry.get();
		if (limiters == null || !this.configured.test(client)) {
			this.without.add(client);
			return RateLimit.NONE;
		}
		return this.known.computeIfAbsent(client, (name) -> new Resilience4jRateLimit(limiters.rateLimiter(name)));
	}

	/**
	 * Put the limiters in use back into the application's registry after Resilience4j built a new one (on a
	 * refresh), with the new registry's settings.
	 */
	public void registryRebuilt() {
		RateLimiterRegistry limiters = this.registry.get();
		if (limiters != null) {
			this.known.forEach((client, limit) -> limit.registryRebuilt(limiters, this.configured.test(client)));
			this.without.stream().filter(this.configured).forEach((client) -> {
				if (this.without.remove(client)) {
					logger.warn("A rate limiter for client '" + client + "' (resilience4j.ratelimiter.instances." + client
							+ ") was added while the application runs: Triage takes it at the next start");
				}
			});
		}
	}

}
