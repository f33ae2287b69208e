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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One managed client as the adapters hold it: its name, and the engine of the settings in force. A reload
 * (SPEC §12) puts a new engine in place; a call takes the engine once, when it opens ({@link Call#open}), and keeps
 * it to its last attempt, so a call never sees part of a change.
 */
public final class ManagedClient {

	private final String name;

	private final Shutdown shutdown;

	private volatile Engine engine;

	/** Whether a service interface of this client has a fallback (each interface has its own, or none). */
	private volatile boolean interfaceFallback;

	/** The base URL of its primary channel as learned from a RestClient it was applied to, {@code null} when none. */
	private volatile String learnedBaseUrl;

	/** The warnings already said about this client: each is said once per client (of this application). */
	private final Set<String> said = ConcurrentHashMap.newKeySet();

	/**
	 * Create a client with its first settings, outside an application (it never closes).
	 * @param runtime the client's runtime
	 */
	public ManagedClient(ClientRuntime runtime) {
		this(runtime, Shutdown.NEVER);
	}

	/**
	 * Create a client of an application with its first settings.
	 * @param runtime the client's runtime
	 * @param shutdown closes when the application's clients do
	 */
	public ManagedClient(ClientRuntime runtime, Shutdown shutdown) {
		this.name = runtime.name();
		this.shutdown = shutdown;
		this.engine = new Engine(runtime, shutdown);
	}

	/**
	 * Note a warning about this client, said once per client.
	 * @param warning the warning, or a key for it
	 * @return whether it is new, to be said now
	 */
	public boolean sayOnce(String warning) {
		return this.said.add(warning);
	}

	/**
	 * Return whether a warning about this client was said.
	 * @param prefix how the warning or its key begins
	 * @return whether one was
	 */
	public boolean said(String prefix) {
		return this.said.stream().anyMatch((warning) -> warning.startsWith(prefix));
	}

	/**
	 * Return the client's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the engine of the settings in force now; a call takes it once, when it opens.
	 * @return the engine
	 */
	public Engine engine() {
		return this.engine;
	}

	/**
	 * Return the runtime of the settings in force now.
	 * @return the runtime
	 */
	public ClientRuntime runtime() {
		return this.engine.runtime();
	}

	/**
	 * Put new settings in force for calls that open from now on.
	 * @param runtime the client's new runtime
	 */
	/**
	 * Note that a service interface of this client has a {@code TriageFallback}: the adapters hand an interface's
	 * fallback to each call made through it (several interfaces may share one client, one upstream).
	 */
	public void interfaceFallbackDeclared() {
		this.interfaceFallback = true;
	}

	/**
	 * Return whether a {@code TriageFallback} answers for this client (for one of its interfaces at least).
	 * @return whether a fallback is declared
	 */
	public boolean hasFallback() {
		return this.interfaceFallback;
	}

	/**
	 * Note the base URL of the client's primary channel, as read from a {@code RestClient} put under it.
	 * @param baseUrl the base URL
	 */
	public void learnedBaseUrl(String baseUrl) {
		this.learnedBaseUrl = baseUrl;
	}

	/**
	 * Return the base URL of the client's primary channel as read from a {@code RestClient} put under it.
	 * @return the base URL, {@code null} when none was read
	 */
	public String learnedBaseUrl() {
		return this.learnedBaseUrl;
	}

	void use(ClientRuntime runtime) {
		this.engine = new Engine(runtime, this.shutdown);
	}

}
