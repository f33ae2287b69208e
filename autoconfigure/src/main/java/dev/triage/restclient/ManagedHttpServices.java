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
package dev.triage.restclient;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.triage.CallOutcome;
import dev.triage.TriageFallback;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.engine.Call;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.ManagedClients;
import dev.triage.policy.RetryDecision;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.client.RestClient;

/**
 * Triage for HTTP service clients: a {@link TriageRequestInterceptor} and a {@link TriageStatusHandler} on each
 * managed {@code RestClient}, and, around each {@code @HttpExchange} proxy, the call: it is opened where the
 * caller's call starts, and when it finally fails the engine hands what actually happened to the service
 * interface's {@link TriageFallback}.
 */
public final class ManagedHttpServices implements TriageHttpServices {

	/**
	 * Whether Spring Framework 7 runs the interceptors after a re-executing one on every attempt (its HTTP service
	 * registry is new in 7): Triage's interceptor then goes first, so that every other one sees every attempt; on
	 * Framework 6.2, which runs them on the first attempt only, it goes last.
	 */
	static final boolean FRAMEWORK_7 = ClassUtils.isPresent(
			"org.springframework.web.service.registry.HttpServiceProxyRegistry", ManagedHttpServices.class.getClassLoader());

	private final ManagedClients clients;

	private final Predicate<String> enabled;

	private final Function<Class<?>, TriageFallback<?>> fallbacks;

	/**
	 * Create the HTTP service client adapter.
	 * @param clients the managed clients
	 * @param enabled whether Triage manages a client of that name
	 * @param fallbacks the fallback of a service interface, {@code null} for none
	 */
	public ManagedHttpServices(ManagedClients clients, Predicate<String> enabled,
			Function<Class<?>, TriageFallback<?>> fallbacks) {
		this.clients = clients;
		this.enabled = enabled;
		this.fallbacks = fallbacks;
	}

	@Override
	public <S> S createClient(String client, Class<S> serviceType, RestClient restClient) {
		RestClient managed = restClient.mutate().apply(forClient(client)).build();
		S proxy = UnmanagedHttpServices.proxy(serviceType, managed);
		if (!this.enabled.test(client)) {
			return proxy;
		}
		return wrap(this.clients.client(client), serviceType, proxy);
	}

	@Override
	public Consumer<RestClient.Builder> forClient(String client) {
		return forClient(client, null, FRAMEWORK_7);
	}

	/**
	 * Return what puts a {@code RestClient} under a client's table.
	 * @param client the client's name
	 * @param baseUrl the client's base URL, its {@code primary} channel; {@code null}: the builder's, when it can
	 * be read as the customization is applied
	 * @param first whether Triage's interceptor goes first (Spring Framework 7 runs the interceptors after it
	 * on every attempt) rather than last (Framework 6.2 runs them on the first attempt only)
	 * @return the builder customization
	 */
	public Consumer<RestClient.Builder> forClient(String client, String baseUrl, boolean first) {
		if (!this.enabled.test(client)) {
			return (builder) -> {
			};
		}
		ManagedClient managed = this.clients.client(client);
		return (builder) -> {
			HiddenRetries.remove(managed, builder);
			String base = baseUrl;
			if (base == null) {
				base = BuilderFields.baseUrl(builder);
				if (base != null) {
					managed.learnedBaseUrl(base);
				}
			}
			String primaryBase = base;
			builder.requestInterceptors((interceptors) -> {
				if (first) {
					interceptors.removeIf(TriageRequestInterceptor.class::isInstance);
					interceptors.add(0, new TriageRequestInterceptor(managed, primaryBase));
				}
				else {
					// The load balancer before Triage's interceptor would choose one instance per call: it goes
					// inside, and chooses one per attempt.
					ClientHttpRequestInterceptor balancer = HiddenRetries.takeOutLoadBalancer(interceptors);
					interceptors.add(new TriageRequestInterceptor(managed, primaryBase, balancer));
				}
			}).defaultStatusHandler(TriageStatusHandler::matches, new TriageStatusHandler());
		};
	}

	/**
	 * Return whether Triage manages a client of that name.
	 * @param client the client's name
	 * @return whether it is managed
	 */
	boolean manages(String client) {
		return this.enabled.test(client);
	}

	/**
	 * Return the fallback of a service interface, noting on its client that one is declared.
	 * @param client the client the interface is under
	 * @param serviceType the interface
	 * @return the fallback, {@code null} for none
	 */
	TriageFallback<?> fallback(ManagedClient client, Class<?> serviceType) {
		TriageFallback<?> fallback = this.fallbacks.apply(serviceType);
		if (fallback != null) {
			client.interfaceFallbackDeclared();
		}
		return fallback;
	}

	/**
	 * Note an HTTP service group Triage leaves alone, for the endpoint.
	 * @param group the group's name
	 * @param reason why
	 */
	void notManaged(String group, String reason) {
		this.clients.notManaged(group, reason);
	}

	ManagedClient client(String client) {
		return this.clients.client(client);
	}

	@SuppressWarnings("unchecked")
	private <S> S wrap(ManagedClient client, Class<S> serviceType, S target) {
		TriageFallback<?> fallback = fallback(client, serviceType);
		// Built once per method, not per call.
		Map<Method, String> keys = new ConcurrentHashMap<>();
		InvocationHandler handler = (proxy, method, args) -> {
			if (method.getDeclaringClass() == Object.class) {
				return invoke(method, target, args);
			}
			if (method.isDefault()) {
				return InvocationHandler.invokeDefault(proxy, method, args);
			}
			return call(client, fallback, keys.computeIfAbsent(method, (m) -> {
				// A service interface need not be public (a package-private one is common): Spring's proxy behind
				// it is called the way Spring calls it.
				ReflectionUtils.makeAccessible(m);
				return methodKey(serviceType, m);
			}), method, args, () -> invoke(method, target, args));
		};
		return (S) Proxy.newProxyInstance(serviceType.getClassLoader(), new Class<?>[] { serviceType }, handler);
	}

	/**
	 * One call of a service interface's method: the call is opened here; when it finally fails the engine hands
	 * what actually happened to the fallback.
	 * @param client the client
	 * @param fallback the service interface's fallback, {@code null} for none
	 * @param methodKey the method key
	 * @param method the method
	 * @param args the arguments
	 * @param invocation makes the call through the proxy; asked again when a 2xx body broke off and the rule
	 * allows another attempt
	 * @return what the method returns, or the fallback's answer
	 * @throws Throwable what the call or the fallback threw
	 */
	static Object call(ManagedClient client, TriageFallback<?> fallback, String methodKey, Method method,
			Object[] args, Invocation invocation) throws Throwable {
		Call call = Call.open(client, methodKey);
		Engine engine = call.engine();
		try {
			UpstreamUnavailableException refused = engine.refuseEarly(methodKey);
			if (refused != null) {
				return engine.fail(call, refused, refused, fallback, method, args);
			}
			Object result;
			while (true) {
				int triesBefore = call.tries();
				try {
					result = invocation.proceed();
					break;
				}
				catch (UpstreamException ex) {
					return engine.fail(call, ex, ex, fallback, method, args);
				}
				catch (RuntimeException ex) {
					UpstreamException typed = Engine.upstreamCause(ex);
					if (typed != null) {
						// An error event inside a 2xx stream, thrown while the body was read: never retried.
						return engine.fail(call, typed, typed, fallback, method, args);
					}
					// What the last attempt really ended in, if this invocation made one: a failure before any
					// attempt is not the upstream's doing, whatever an earlier attempt of the call ended in.
					UpstreamException answered = (call.tries() > triesBefore) ? call.lastAnswer() : null;
					if (answered == null) {
						engine.report(call, CallOutcome.FAILURE, ex, null, true);
						throw ex;
					}
					if (answered instanceof UpstreamResponseException) {
						// A status handler of the RestClient's own (defaultStatusHandler) turned a real answer into
						// an exception of its choice: the caller gets that exception, as with a Feign client's own
						// error decoder, but metrics, log and fallback see what the upstream really said.
						return engine.fail(call, answered, ex, fallback, method, args);
					}
					// The body of a 2xx broke off while it was read: that attempt failed as its rule says, and the
					// call is retried as Feign's would be, if the rule allows it.
					call.failed(answered, call.lastRule());
					RetryDecision decision = engine.decide(call, call.lastRule(), call.tries(), call.idempotent(),
							Optional.empty(), Duration.ofNanos(call.elapsedNanos()));
					if (!decision.retry()) {
						return engine.fail(call, answered, answered, fallback, method, args);
					}
					engine.await(call, decision, answered);
				}
			}
			engine.returned(call);
			return result;
		}
		finally {
			call.close();
		}
	}

	/**
	 * Makes the call through the HTTP service proxy.
	 */
	@FunctionalInterface
	interface Invocation {

		Object proceed() throws Throwable;

	}

	private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * Return the method key, as Feign writes it: {@code InventoryClient#item(String)}.
	 */
	static String methodKey(Class<?> serviceType, Method method) {
		return serviceType.getSimpleName() + "#" + method.getName() + Stream.of(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(",", "(", ")"));
	}

}
