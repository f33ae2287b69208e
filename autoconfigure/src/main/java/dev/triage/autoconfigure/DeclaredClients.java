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

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.triage.policy.InvalidPolicyException;

/**
 * The Feign clients an application declares at startup, one per Spring Cloud OpenFeign client context, and the
 * configured wait for a pooled connection of their HTTP client ({@code null} when unknown). Triage keys a client by
 * its {@code @FeignClient} name (SPEC §3): the interfaces declared for one upstream, each with its own
 * {@code contextId}, share its settings, breaker, limits and meters; each keeps its own fallback.
 *
 * @param contexts the Feign client contexts, in declaration order
 * @param poolTimeout the pool wait
 */
record DeclaredClients(List<Context> contexts, Duration poolTimeout) {

	static final DeclaredClients NONE = new DeclaredClients(List.of(), null);

	/**
	 * Return the names of the declared clients, each once, in declaration order.
	 * @return the names
	 */
	Set<String> names() {
		Set<String> names = new LinkedHashSet<>();
		this.contexts.forEach((context) -> names.add(context.name()));
		return names;
	}

	/**
	 * Return the name of the client a Feign client context belongs to.
	 * @param contextId the context's name (the {@code contextId}, or the name when none is set)
	 * @return the client's name, {@code contextId} itself for a context not declared at startup
	 */
	String name(String contextId) {
		return this.contexts.stream()
			.filter((context) -> context.contextId().equals(contextId))
			.map(Context::name)
			.findFirst()
			.orElse(contextId);
	}

	/**
	 * Refuse {@code triage.clients.<contextId>} where that is a {@code contextId} and no client's name: the
	 * settings would apply to nothing while the author believes them in force.
	 * @param settings the names under {@code triage.clients}
	 * @throws InvalidPolicyException for the first such key
	 */
	void rejectContextIdKeys(Set<String> settings) {
		Set<String> names = names();
		this.contexts.stream()
			.filter((context) -> settings.contains(context.contextId()) && !names.contains(context.contextId()))
			.findFirst()
			.ifPresent((context) -> {
				throw new InvalidPolicyException("triage.clients." + context.contextId(), context.contextId(),
						"the @FeignClient name '" + context.name() + "', not the contextId of " + context.className()
								+ ": Triage keys a Feign client by its name, its upstream, so every interface declared "
								+ "for it shares one policy table, breaker and limits; write triage.clients."
								+ context.name());
			});
	}

	/**
	 * One Feign client context.
	 *
	 * @param contextId the context's name: the {@code contextId}, or the name when none is set
	 * @param name the {@code @FeignClient} name (placeholders resolved)
	 * @param className the client interface's class name, {@code null} when unknown
	 */
	record Context(String contextId, String name, String className) {
	}

}
