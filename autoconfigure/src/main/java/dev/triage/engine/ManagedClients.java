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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The Feign clients Triage manages, each with its runtime, created once at startup.
 */
public final class ManagedClients {

	private final Map<String, ClientRuntime> runtimes;

	private final Function<String, ClientRuntime> lateFactory;

	private final Map<String, ClientRuntime> late = new ConcurrentHashMap<>();

	/**
	 * Create the registry.
	 * @param runtimes the runtimes of the clients known at startup, by name
	 * @param lateFactory creates the runtime of a client that was not known at startup
	 */
	public ManagedClients(Map<String, ClientRuntime> runtimes, Function<String, ClientRuntime> lateFactory) {
		this.runtimes = Collections.unmodifiableMap(new LinkedHashMap<>(runtimes));
		this.lateFactory = lateFactory;
	}

	/**
	 * Return the runtime of a client.
	 * @param name the Feign client name
	 * @return the runtime
	 */
	public ClientRuntime get(String name) {
		ClientRuntime runtime = this.runtimes.get(name);
		return (runtime != null) ? runtime : this.late.computeIfAbsent(name, this.lateFactory);
	}

	/**
	 * Return the runtime of a client, if it is managed.
	 * @param name the Feign client name
	 * @return the runtime or {@code null}
	 */
	public ClientRuntime find(String name) {
		ClientRuntime runtime = this.runtimes.get(name);
		return (runtime != null) ? runtime : this.late.get(name);
	}

	/**
	 * Return every managed client by name.
	 * @return the runtimes
	 */
	public Map<String, ClientRuntime> all() {
		Map<String, ClientRuntime> all = new LinkedHashMap<>(this.runtimes);
		all.putAll(this.late);
		return Collections.unmodifiableMap(all);
	}

}
