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

package dev.triage.feign;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import dev.triage.TriageFallback;
import dev.triage.engine.ManagedClient;
import feign.Capability;
import feign.Client;
import feign.Feign;
import feign.InvocationHandlerFactory;
import feign.InvocationHandlerFactory.MethodHandler;
import feign.Retryer;
import feign.codec.Decoder;
import feign.codec.ErrorDecoder;

/**
 * Puts Triage into a Feign client: the {@link Client} is wrapped for per-attempt classification and breaker
 * recording, and every method handler is wrapped to scope the call, answer with the fallback and report the
 * call. Whatever else builds the client (Spring Cloud's circuit breaker included) keeps working on top.
 */
public final class TriageCapability implements Capability {

	private final ManagedClient client;

	private final Function<Class<?>, TriageFallback<?>> fallbacks;

	private final UnderlyingClient underlying;

	/**
	 * Create the capability of one client.
	 * @param client the client
	 * @param fallbacks the fallback of a client interface, {@code null} for none
	 */
	public TriageCapability(ManagedClient client, Function<Class<?>, TriageFallback<?>> fallbacks) {
		this.client = client;
		this.fallbacks = fallbacks;
		this.underlying = new UnderlyingClient(client.name());
	}

	@Override
	public Client enrich(Client client) {
		if (client instanceof TriageClient) {
			return client;
		}
		return new TriageClient(this.underlying.checked(client), this.client);
	}

	/**
	 * An application's own retryer still retries only what the table allows (it decides the waits); Triage's is
	 * left as it is.
	 */
	@Override
	public Retryer enrich(Retryer retryer) {
		return (retryer == null || retryer instanceof TriageRetryer) ? retryer : new TriageRetryer(this.client, retryer);
	}

	/**
	 * An application's own error decoder makes the exception the caller gets; the table still decides what is
	 * retried (Feign retries only what an error decoder returns as a {@code RetryableException}).
	 */
	@Override
	public ErrorDecoder enrich(ErrorDecoder errorDecoder) {
		return (errorDecoder == null || errorDecoder instanceof TriageErrorDecoder) ? errorDecoder
				: new TriageErrorDecoder(this.client, errorDecoder);
	}

	@Override
	public Decoder enrich(Decoder decoder) {
		return (decoder instanceof TriageDecoder) ? decoder : new TriageDecoder(decoder);
	}

	@Override
	public InvocationHandlerFactory enrich(InvocationHandlerFactory factory) {
		return (target, dispatch) -> {
			TriageFallback<?> fallback = this.fallbacks.apply(target.type());
			if (fallback != null) {
				this.client.interfaceFallbackDeclared();
			}
			Map<Method, MethodHandler> wrapped = new LinkedHashMap<>();
			dispatch.forEach((method, handler) -> wrapped.put(method, method.isDefault() ? handler
					: new TriageMethodHandler(handler, this.client, fallback, method,
							Feign.configKey(target.type(), method))));
			return factory.create(target, wrapped);
		};
	}

}
