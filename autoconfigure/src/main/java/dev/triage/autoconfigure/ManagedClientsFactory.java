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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.breaker.UpstreamBreakers;
import dev.triage.CallObserver;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.ConcurrencyLimits;
import dev.triage.overload.Overload;
import dev.triage.overload.Pauses;
import dev.triage.overload.RateLimits;
import dev.triage.poison.Fingerprints;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.ErrorTypeExtractor;
import dev.triage.policy.RetryPlanner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.ClassUtils;

/**
 * Builds the runtime of every managed client: validated policy table, breaker, limits and channels; at startup
 * for the Feign clients, when created for an HTTP service client, and again for a change applied while running.
 */
final class ManagedClientsFactory {

	private static final Log logger = LogFactory.getLog(ManagedClientsFactory.class);

	/** Whether Spring Cloud OpenFeign is there, whose clients built at run time are not declared at startup. */
	private static final boolean FEIGN_CLIENT_BUILDER = ClassUtils.isPresent(
			"org.springframework.cloud.openfeign.FeignClientBuilder", ManagedClientsFactory.class.getClassLoader());

	private final TriageProperties properties;

	private final UpstreamBreakers breakers;

	private final CallObserver observer;

	private final Duration poolTimeout;

	private final ErrorTypeExtractor errorTypes;

	private final Set<String> sensitiveHeaders;

	private final RetryPlanner planner;

	private final RateLimits rateLimits;

	private final ConcurrencyLimits concurrencyLimits;

	private final Pauses pauses;

	private final Consumer<PoisonRequestEvent> poisonEvents;

	/** The application's fingerprint key, the same for every client and over reloads. */
	private final Fingerprints fingerprints;

	ManagedClientsFactory(TriageProperties properties, UpstreamBreakers breakers, CallObserver observer, Duration poolTimeout, RateLimits rateLimits, ConcurrencyLimits concurrencyLimits,
			Pauses pauses, ApplicationEventPublisher eventPublisher) {
		this(properties, breakers, observer, poolTimeout, rateLimits, concurrencyLimits, pauses,
				(Consumer<PoisonRequestEvent>) (event) -> {
					observer.onPoison(event);
					eventPublisher.publishEvent(event);
				}, new Fingerprints());
	}

	private ManagedClientsFactory(TriageProperties properties, UpstreamBreakers breakers, CallObserver observer, Duration poolTimeout, RateLimits rateLimits, ConcurrencyLimits concurrencyLimits,
			Pauses pauses, Consumer<PoisonRequestEvent> poisonEvents, Fingerprints fingerprints) {
		PolicyTables.validate(properties);
		this.planner = new RetryPlanner(() -> ThreadLocalRandom.current().nextDouble(),
				PolicyTables.idempotentMethods(properties));
		this.rateLimits = rateLimits;
		this.concurrencyLimits = concurrencyLimits;
		this.pauses = pauses;
		this.poisonEvents = poisonEvents;
		this.fingerprints = fingerprints;
		this.properties = properties;
		this.breakers = breakers;
		this.observer = observer;
		this.poolTimeout = poolTimeout;
		this.errorTypes = new ErrorTypeExtractor(properties.getErrorTypePointers(), "triage.error-type-pointers");
		this.sensitiveHeaders = java.util.stream.Stream
			.concat(TriageProperties.BUILT_IN_SENSITIVE_HEADERS.stream(), properties.getSensitiveHeaders().stream())
			.map((name) -> name.trim().toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return a factory for other settings, validated as at startup, with the same breakers, fallbacks, observers
	 * and limits.
	 * @param properties the settings
	 * @param clients the Feign clients declared in the application
	 * @return the factory
	 * @throws RuntimeException the startup failure these settings would cause
	 */
	ManagedClientsFactory withProperties(TriageProperties properties, DeclaredClients clients) {
		ManagedClientsFactory next = new ManagedClientsFactory(properties, this.breakers, this.observer, this.poolTimeout, this.rateLimits, this.concurrencyLimits, this.pauses, this.poisonEvents,
				this.fingerprints);
		validate(properties, clients);
		return next;
	}

	/**
	 * Return the settings this factory builds from.
	 * @return the settings
	 */
	TriageProperties properties() {
		return this.properties;
	}

	/**
	 * Return the runtime of a client met after startup (an HTTP service client).
	 * @param name the client name
	 * @return the runtime
	 */
	ClientRuntime late(String name) {
		return runtime(name);
	}

	/**
	 * Create the registry.
	 * @param declared the Feign clients declared in the application
	 * @return the registry
	 */
	ManagedClients create(DeclaredClients declared) {
		validate(this.properties, declared);
		Set<String> clients = declared.names();
		Map<String, ClientRuntime> runtimes = new LinkedHashMap<>();
		clients.forEach((name) -> {
			if (isEnabled(name)) {
				runtimes.put(name, runtime(name));
			}
		});
		// A typo shows here; an application without Feign clients is told nothing about Feign.
		String feign = clients.isEmpty() ? "" : " names no Feign client of this application (Feign clients: "
				+ clients + "); it";
		this.properties.getClients().keySet().stream().filter((name) -> !clients.contains(name)).forEach(
				(name) -> logger.info("triage.clients." + name + feign + " applies to the HTTP service client or "
						+ "group of that name (a client made with TriageHttpServices, a group of @ImportHttpServices)"
						+ (FEIGN_CLIENT_BUILDER ? ", or to a Feign client built with FeignClientBuilder under that "
								+ "name or contextId" : "")));
		return new ManagedClients(runtimes, this::late);
	}

	private static void validate(TriageProperties properties, DeclaredClients declared) {
		declared.rejectContextIdKeys(properties.getClients().keySet());
		ChannelSettings.validate(properties, declared.names());
	}

	boolean isEnabled(String name) {
		TriageProperties.Client client = this.properties.getClients().get(name);
		return client == null || client.isEnabled();
	}

	private ClientRuntime runtime(String name) {
		TriageProperties.Client client = this.properties.getClients().get(name);
		Clock clock = Clock.systemUTC();
		Overload overload = Overload.of(OverloadSettings.budget(this.properties, name),
				OverloadSettings.throttle(this.properties, name), this.rateLimits.forClient(name),
				this.concurrencyLimits.forClient(name), pauseMax(client),
				this.pauses.create(name, OriginalResponse.PRIMARY, clock));
		UpstreamBreaker breaker = this.breakers.forClient(name);
		return runtime(name, client, breaker, overload, clock,
				new PoisonTracker(OverloadSettings.poison(this.properties, name), System::nanoTime, this.poisonEvents,
						this.fingerprints),
				Map.of(), ConcurrentHashMap.newKeySet());
	}

	/**
	 * Build a client's runtime from these settings, keeping the state of the one in force (SPEC §12): its breakers,
	 * pauses, budget and throttle windows, poison list and rate limits carry over; a channel added starts fresh,
	 * a channel removed goes, its breaker with it, a channel whose URL changed gets a fresh breaker.
	 * @param name the client name
	 * @param previous the runtime in force
	 * @return the new runtime
	 */
	ClientRuntime rebuild(String name, ClientRuntime previous) {
		TriageProperties.Client client = this.properties.getClients().get(name);
		Overload old = previous.overload();
		Overload overload = new Overload(old.budget().with(OverloadSettings.budget(this.properties, name)),
				old.throttle().with(OverloadSettings.throttle(this.properties, name)), old.pause(), old.rateLimit(),
				old.concurrencyLimit(), pauseMax(client));
		previous.poison().reconfigure(OverloadSettings.poison(this.properties, name));
		Map<String, Channel> kept = new LinkedHashMap<>();
		previous.channels().all().forEach((channel) -> kept.put(channel.name(), channel));
		Set<String> configured = (client != null) ? client.getChannels().keySet() : Set.of();
		kept.keySet().stream().filter((channel) -> !channel.equals(OriginalResponse.PRIMARY) && !configured.contains(channel))
			.forEach((channel) -> this.breakers.remove(ChannelSettings.breakerName(name, channel)));
		if (client != null) {
			// A channel that now points elsewhere is another upstream: what its breaker learned was about the old one.
			client.getChannels().forEach((channel, url) -> {
				Channel was = kept.get(channel);
				if (was != null && !ChannelSettings.baseUrl(url).equals(was.baseUrl())) {
					String breakerName = ChannelSettings.breakerName(name, channel);
					this.breakers.remove(breakerName);
					kept.put(channel, new Channel(channel, was.baseUrl(),
							this.breakers.forChannel(breakerName, name, channel), was.pause()));
				}
			});
		}
		return runtime(name, client, previous.breaker(), overload, previous.clock(),
				previous.poison(), kept, previous.unknownStatusesSeen());
	}

	private Duration pauseMax(TriageProperties.Client client) {
		return (client != null && client.getPauseMax() != null) ? client.getPauseMax() : this.properties.getPauseMax();
	}

	private ClientRuntime runtime(String name, TriageProperties.Client client, UpstreamBreaker breaker, Overload overload, Clock clock, PoisonTracker poison, Map<String, Channel> kept,
			Set<Integer> unknownStatusesSeen) {
		List<Channel> channels = new ArrayList<>();
		channels.add(new Channel(OriginalResponse.PRIMARY, null, breaker, overload.pause()));
		if (client != null) {
			client.getChannels().forEach((channel, url) -> {
				Channel old = kept.get(channel);
				channels.add((old != null) ? new Channel(channel, ChannelSettings.baseUrl(url), old.breaker(), old.pause())
						: new Channel(channel, ChannelSettings.baseUrl(url),
								this.breakers.forChannel(ChannelSettings.breakerName(name, channel), name, channel),
								this.pauses.create(name, channel, clock)));
			});
		}
		return new ClientRuntime(name, PolicyTables.forClient(this.properties, name), this.planner, this.errorTypes,
				(int) this.properties.getMaxBodyBytes().toBytes(), this.sensitiveHeaders,
				(client != null) ? client.getDeadline() : null, this.poolTimeout, breaker, this.observer,
				clock, overload, new Channels(channels), poison, unknownStatusesSeen);
	}

}
