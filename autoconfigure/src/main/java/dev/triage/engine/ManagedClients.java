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

package dev.triage.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The clients Triage manages, each with the runtime of the settings in force: the Feign clients declared in the
 * application, created at startup, and the clients met later (HTTP service clients), created when first used.
 * {@link #reload} swaps every client's settings at once (SPEC §12).
 */
public final class ManagedClients {

	private static final Log logger = LogFactory.getLog(ManagedClients.class);

	private final Map<String, ManagedClient> clients;

	private final Map<String, ManagedClient> late = new ConcurrentHashMap<>();

	/** HTTP service groups the application declares that Triage leaves alone, with the reason. */
	private final Map<String, String> notManaged = new ConcurrentHashMap<>();

	private final Object changes = new Object();

	private final Shutdown shutdown = new Shutdown();

	/** Told of each client created after they were added (see {@link #eachClient}). */
	private final List<Consumer<ManagedClient>> listeners = new CopyOnWriteArrayList<>();

	private volatile Function<String, ClientRuntime> lateFactory;

	/**
	 * Create the registry.
	 * @param runtimes the runtimes of the clients known at startup, by name
	 * @param lateFactory creates the runtime of a client that was not known at startup
	 */
	public ManagedClients(Map<String, ClientRuntime> runtimes, Function<String, ClientRuntime> lateFactory) {
		Map<String, ManagedClient> clients = new LinkedHashMap<>();
		runtimes.forEach((name, runtime) -> clients.put(name, new ManagedClient(runtime, this.shutdown)));
		this.clients = Collections.unmodifiableMap(clients);
		this.lateFactory = lateFactory;
	}

	/**
	 * The application is closing (its context destroys this bean): callers waiting between attempts end at once
	 * with their last real outcome, and no call makes another attempt on HTTP clients being shut down.
	 */
	public void close() {
		this.shutdown.close();
	}

	/**
	 * Return a client, creating it when it was not known at startup.
	 * @param name the client name
	 * @return the client
	 */
	public ManagedClient client(String name) {
		ManagedClient client = this.clients.get(name);
		if (client == null) {
			client = this.late.get(name);
		}
		if (client == null) {
			List<Consumer<ManagedClient>> told;
			// Created under the lock a reload takes, so a client is never created from settings a reload replaced;
			// and the one eachClient takes, so a listener hears of it either there or here, never in both.
			synchronized (this.changes) {
				client = this.late.get(name);
				if (client != null) {
					return client;
				}
				client = new ManagedClient(this.lateFactory.apply(name), this.shutdown);
				this.late.put(name, client);
				told = List.copyOf(this.listeners);
			}
			for (Consumer<ManagedClient> listener : told) {
				tell(listener, client);
			}
		}
		return client;
	}

	/**
	 * Hand a listener every client, each once: those that exist now at once, and each client created from now on
	 * (an HTTP service client met after startup) when it is created, before the call that created it returns.
	 * A listener that fails is logged and does not stop the client being created.
	 * @param listener told of each client
	 */
	public void eachClient(Consumer<ManagedClient> listener) {
		List<ManagedClient> existing;
		synchronized (this.changes) {
			existing = new ArrayList<>(this.clients.values());
			existing.addAll(this.late.values());
			this.listeners.add(listener);
		}
		for (ManagedClient client : existing) {
			tell(listener, client);
		}
	}

	private static void tell(Consumer<ManagedClient> listener, ManagedClient client) {
		try {
			listener.accept(client);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not tell " + listener + " of managed client '" + client.name() + "'", ex);
		}
	}

	/**
	 * Return the runtime in force of a client, creating the client when it was not known at startup.
	 * @param name the client name
	 * @return the runtime
	 */
	public ClientRuntime get(String name) {
		return client(name).runtime();
	}

	/**
	 * Return the runtime in force of a client, if it is managed.
	 * @param name the client name
	 * @return the runtime or {@code null}
	 */
	public ClientRuntime find(String name) {
		ManagedClient client = existing(name);
		return (client != null) ? client.runtime() : null;
	}

	/**
	 * Return whether a {@code TriageFallback} answers for a managed client.
	 * @param name the client name
	 * @return whether one is declared; {@code false} for a client not managed
	 */
	public boolean hasFallback(String name) {
		ManagedClient client = existing(name);
		return client != null && client.hasFallback();
	}

	/**
	 * Return the base URL of a managed client's primary channel as read from a {@code RestClient} put under it.
	 * @param name the client name
	 * @return the base URL, {@code null} when none was read or the client is not managed
	 */
	public String learnedBaseUrl(String name) {
		ManagedClient client = existing(name);
		return (client != null) ? client.learnedBaseUrl() : null;
	}

	private ManagedClient existing(String name) {
		ManagedClient client = this.clients.get(name);
		return (client != null) ? client : this.late.get(name);
	}

	/**
	 * Note an HTTP service group of the application that Triage does not manage.
	 * @param name the group's name
	 * @param reason why, e.g. that it is a {@code WebClient} group
	 */
	public void notManaged(String name, String reason) {
		this.notManaged.put(name, reason);
	}

	/**
	 * Return the HTTP service groups of the application that Triage does not manage, with the reason, by name.
	 * @return the groups
	 */
	public Map<String, String> notManaged() {
		return Collections.unmodifiableMap(new TreeMap<>(this.notManaged));
	}

	/**
	 * Return the runtime in force of every managed client by name.
	 * @return the runtimes
	 */
	public Map<String, ClientRuntime> all() {
		Map<String, ClientRuntime> all = new LinkedHashMap<>();
		this.clients.forEach((name, client) -> all.put(name, client.runtime()));
		this.late.forEach((name, client) -> all.put(name, client.runtime()));
		return Collections.unmodifiableMap(all);
	}

	/**
	 * Put new settings in force for every client. Every runtime is built before any is swapped in, so a failure
	 * while building changes nothing; calls already running keep the runtime they started with.
	 * @param rebuild builds a client's new runtime from its name and its runtime in force
	 * @param lateFactory creates the runtime of a client met after this reload
	 */
	public void reload(BiFunction<String, ClientRuntime, ClientRuntime> rebuild,
			Function<String, ClientRuntime> lateFactory) {
		synchronized (this.changes) {
			Map<ManagedClient, ClientRuntime> next = new LinkedHashMap<>();
			this.clients.values().forEach((client) -> next.put(client, rebuild.apply(client.name(), client.runtime())));
			this.late.values().forEach((client) -> next.put(client, rebuild.apply(client.name(), client.runtime())));
			next.forEach(ManagedClient::use);
			this.lateFactory = lateFactory;
		}
	}

}
