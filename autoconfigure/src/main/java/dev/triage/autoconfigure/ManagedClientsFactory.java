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

package dev.triage.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import dev.triage.TriageFallback;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.breaker.UpstreamBreakers;
import dev.triage.fallback.FallbackResolver;
import dev.triage.CallObserver;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.ConcurrencyLimits;
import dev.triage.overload.Overload;
import dev.triage.overload.Pauses;
import dev.triage.overload.RateLimits;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.ErrorTypeExtractor;
import dev.triage.policy.RetryPlanner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.ClassUtils;

/**
 * Builds the runtime of every managed Feign client at startup: validated policy table, breaker, fallback.
 */
final class ManagedClientsFactory {

	private static final Log logger = LogFactory.getLog(ManagedClientsFactory.class);

	private final TriageProperties properties;

	private final UpstreamBreakers breakers;

	private final FallbackResolver fallbacks;

	private final CallObserver observer;

	private final Duration poolTimeout;

	private final ErrorTypeExtractor errorTypes;

	private final Set<String> sensitiveHeaders;

	private final RetryPlanner planner;

	private final RateLimits rateLimits;

	private final ConcurrencyLimits concurrencyLimits;

	private final Pauses pauses;

	private final Consumer<PoisonRequestEvent> poisonEvents;

	ManagedClientsFactory(TriageProperties properties, UpstreamBreakers breakers, FallbackResolver fallbacks,
			CallObserver observer, Duration poolTimeout, RateLimits rateLimits, ConcurrencyLimits concurrencyLimits,
			Pauses pauses, ApplicationEventPublisher eventPublisher) {
		PolicyTables.validate(properties);
		this.planner = new RetryPlanner(() -> ThreadLocalRandom.current().nextDouble(),
				PolicyTables.idempotentMethods(properties));
		this.rateLimits = rateLimits;
		this.concurrencyLimits = concurrencyLimits;
		this.pauses = pauses;
		this.poisonEvents = (event) -> {
			observer.onPoison(event);
			eventPublisher.publishEvent(event);
		};
		this.properties = properties;
		this.breakers = breakers;
		this.fallbacks = fallbacks;
		this.observer = observer;
		this.poolTimeout = poolTimeout;
		this.errorTypes = new ErrorTypeExtractor(properties.getErrorTypePointers(), "triage.error-type-pointers");
		this.sensitiveHeaders = java.util.stream.Stream
			.concat(TriageProperties.BUILT_IN_SENSITIVE_HEADERS.stream(), properties.getSensitiveHeaders().stream())
			.map((name) -> name.trim().toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Create the registry.
	 * @param clients the Feign clients declared in the application: name to interface class name
	 * @param classLoader the loader of the client interfaces
	 * @return the registry
	 */
	ManagedClients create(Map<String, String> clients, ClassLoader classLoader) {
		ChannelSettings.validate(this.properties, clients.keySet());
		Map<String, ClientRuntime> runtimes = new LinkedHashMap<>();
		clients.forEach((name, className) -> {
			if (isEnabled(name)) {
				Class<?> type = (className != null && ClassUtils.isPresent(className, classLoader))
						? ClassUtils.resolveClassName(className, classLoader) : null;
				runtimes.put(name, runtime(name, (type != null) ? this.fallbacks.forClient(type) : null));
			}
		});
		this.properties.getClients().keySet().stream().filter((name) -> !clients.containsKey(name)).forEach(
				(name) -> logger.info("triage.clients." + name + " names no Feign client of this application (known: "
						+ clients.keySet() + "); it applies to an HTTP service client of that name when one is created"));
		return new ManagedClients(runtimes, (name) -> runtime(name, null));
	}

	boolean isEnabled(String name) {
		TriageProperties.Client client = this.properties.getClients().get(name);
		return client == null || client.isEnabled();
	}

	private ClientRuntime runtime(String name, TriageFallback<?> fallback) {
		TriageProperties.Client client = this.properties.getClients().get(name);
		Clock clock = Clock.systemUTC();
		Duration pauseMax = (client != null && client.getPauseMax() != null) ? client.getPauseMax()
				: this.properties.getPauseMax();
		Overload overload = Overload.of(OverloadSettings.budget(this.properties, name),
				OverloadSettings.throttle(this.properties, name), this.rateLimits.forClient(name),
				this.concurrencyLimits.forClient(name), pauseMax, this.pauses.create(name, OriginalResponse.PRIMARY, clock));
		UpstreamBreaker breaker = this.breakers.forClient(name);
		List<Channel> channels = new ArrayList<>();
		channels.add(new Channel(OriginalResponse.PRIMARY, null, breaker, overload.pause()));
		if (client != null) {
			client.getChannels()
				.forEach((channel, url) -> channels.add(new Channel(channel, ChannelSettings.baseUrl(url),
						this.breakers.forChannel(ChannelSettings.breakerName(name, channel), name, channel),
						this.pauses.create(name, channel, clock))));
		}
		return new ClientRuntime(name, PolicyTables.forClient(this.properties, name), this.planner, this.errorTypes,
				(int) this.properties.getMaxBodyBytes().toBytes(), this.sensitiveHeaders,
				(client != null) ? client.getDeadline() : null, this.poolTimeout, breaker, fallback, this.observer,
				clock, overload, new Channels(channels),
				new PoisonTracker(OverloadSettings.poison(this.properties, name), System::nanoTime, this.poisonEvents));
	}

}
