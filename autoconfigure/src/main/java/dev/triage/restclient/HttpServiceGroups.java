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

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.triage.TriageFallback;
import dev.triage.engine.ManagedClient;
import org.aopalliance.intercept.MethodInterceptor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.client.RestClient;

/**
 * Spring Framework 7's HTTP service groups ({@code @ImportHttpServices}, Spring Boot 4's
 * {@code spring.http.serviceclient.<group>.*}), managed by default, each as the Triage client named after its
 * group: a {@code RestClientHttpServiceGroupConfigurer} that puts Triage's interceptor first on every group's
 * {@code RestClient} (Framework 7 runs the interceptors after it on every attempt) and, through each group's
 * proxy factory, opens the call around every service method and answers with the service interface's
 * {@link TriageFallback}.
 * <p>
 * Written against Framework 6.2 (the same jar serves both Boot lines): the Framework 7 types are reached by name.
 */
public final class HttpServiceGroups {

	/** The configurer type of Framework 7; absent on 6.2. */
	public static final String CONFIGURER = "org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer";

	/** The configurer of Framework 7's {@code WebClient} groups, with Spring WebFlux on the classpath. */
	public static final String WEB_CLIENT_CONFIGURER = "org.springframework.web.reactive.function.client.support.WebClientHttpServiceGroupConfigurer";

	private static final String GROUP_CALLBACK = "org.springframework.web.service.registry.HttpServiceGroupConfigurer$GroupCallback";

	private static final String PROXY_FACTORY_CUSTOMIZER = "org.springframework.web.service.invoker.HttpServiceProxyFactory$ProxyFactoryCustomizer";

	/** After Spring Boot's configurers (base URL, request factory: {@code HIGHEST_PRECEDENCE + 10} and 0). */
	private static final int ORDER = 20;

	private static final Log logger = LogFactory.getLog(HttpServiceGroups.class);

	private final ManagedHttpServices services;

	private final Function<String, String> baseUrls;

	private final GroupCheck check;

	/**
	 * Create the groups' configuration.
	 * @param services the HTTP service client adapter
	 * @param baseUrls the base URL of a group, {@code null} when none is configured
	 * @param check refuses what must not run with a managed group (a second breaker or retry layer)
	 */
	public HttpServiceGroups(ManagedHttpServices services, Function<String, String> baseUrls, GroupCheck check) {
		this.services = services;
		this.baseUrls = baseUrls;
		this.check = check;
	}

	/**
	 * Return the configurer, an instance of Framework 7's {@code RestClientHttpServiceGroupConfigurer}.
	 * @param classLoader the application's class loader
	 * @return the configurer
	 */
	public Object configurer(ClassLoader classLoader) {
		Class<?> type = ClassUtils.resolveClassName(CONFIGURER, classLoader);
		Class<?> groupCallback = ClassUtils.resolveClassName(GROUP_CALLBACK, classLoader);
		Class<?> customizer = ClassUtils.resolveClassName(PROXY_FACTORY_CUSTOMIZER, classLoader);
		InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
			case "configureGroups" -> {
				Object callback = Proxy.newProxyInstance(classLoader, new Class<?>[] { groupCallback },
						(p, m, a) -> "withGroup".equals(m.getName()) ? withGroup(a[0], a[1], a[2], customizer, classLoader)
								: objectMethod(p, m, a));
				invoke(args[0], "forEachGroup", callback);
				yield null;
			}
			case "getOrder" -> ORDER;
			default -> objectMethod(proxy, method, args);
		};
		return Proxy.newProxyInstance(classLoader, new Class<?>[] { type }, handler);
	}

	/**
	 * Return the configurer that runs after the application's own (Framework 7's default order, the lowest, and
	 * declared after them): a request factory one of them set on a managed group (an Apache HttpClient 5 that retries
	 * on its own, a JDK client) is checked as {@link ManagedHttpServices#forClient} checks the one it finds.
	 * @param services the HTTP service client adapter
	 * @param classLoader the application's class loader
	 * @return the configurer, an instance of Framework 7's {@code RestClientHttpServiceGroupConfigurer}
	 */
	public static Object lastConfigurer(ManagedHttpServices services, ClassLoader classLoader) {
		Class<?> type = ClassUtils.resolveClassName(CONFIGURER, classLoader);
		Class<?> groupCallback = ClassUtils.resolveClassName(GROUP_CALLBACK, classLoader);
		InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
			case "configureGroups" -> {
				Object callback = Proxy.newProxyInstance(classLoader, new Class<?>[] { groupCallback }, (p, m, a) -> {
					if (!"withGroup".equals(m.getName())) {
						return objectMethod(p, m, a);
					}
					String name = (String) invoke(a[0], "name");
					if (services.manages(name)) {
						HiddenRetries.remove(services.client(name), (RestClient.Builder) a[1]);
					}
					return null;
				});
				invoke(args[0], "forEachGroup", callback);
				yield null;
			}
			case "getOrder" -> Ordered.LOWEST_PRECEDENCE;
			default -> objectMethod(proxy, method, args);
		};
		return Proxy.newProxyInstance(classLoader, new Class<?>[] { type }, handler);
	}

	/**
	 * Return a configurer of Framework 7's {@code WebClient} groups, an instance of its
	 * {@code WebClientHttpServiceGroupConfigurer}: it changes nothing, and notes each group as not managed (Triage
	 * manages blocking {@code RestClient} groups only) so that the endpoint lists it as such.
	 * A group with {@code triage.clients.<group>} settings is said at WARN: they apply to nothing.
	 * @param services the HTTP service client adapter, told of each group
	 * @param configured whether {@code triage.clients} has an entry of a name
	 * @param classLoader the application's class loader
	 * @return the configurer
	 */
	public static Object webClientConfigurer(ManagedHttpServices services, Predicate<String> configured,
			ClassLoader classLoader) {
		Class<?> type = ClassUtils.resolveClassName(WEB_CLIENT_CONFIGURER, classLoader);
		Class<?> groupCallback = ClassUtils.resolveClassName(GROUP_CALLBACK, classLoader);
		InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
			case "configureGroups" -> {
				Object callback = Proxy.newProxyInstance(classLoader, new Class<?>[] { groupCallback },
						(p, m, a) -> {
							if (!"withGroup".equals(m.getName())) {
								return objectMethod(p, m, a);
							}
							String name = (String) invoke(a[0], "name");
							services.notManaged(name, "a WebClient group: Triage manages RestClient groups");
							if (configured.test(name)) {
								logger.warn("triage.clients." + name + " names a WebClient group of @ImportHttpServices: "
										+ "Triage manages RestClient groups only, so these settings apply to nothing "
										+ "(the group sends as WebClient does); make the group a RestClient group "
										+ "(clientType = REST_CLIENT, the default) for Triage to manage it");
							}
							return null;
						});
				invoke(args[0], "forEachGroup", callback);
				yield null;
			}
			case "getOrder" -> ORDER;
			default -> objectMethod(proxy, method, args);
		};
		return Proxy.newProxyInstance(classLoader, new Class<?>[] { type }, handler);
	}

	private Object withGroup(Object group, Object clientBuilder, Object factoryBuilder, Class<?> customizer,
			ClassLoader classLoader) {
		String name = (String) invoke(group, "name");
		if (!this.services.manages(name)) {
			this.services.notManaged(name, "triage.clients." + name + ".enabled is false");
			return null;
		}
		this.check.check(name, (Iterable<Class<?>>) invoke(group, "httpServiceTypes"));
		((RestClient.Builder) clientBuilder).apply(this.services.forClient(name, this.baseUrls.apply(name), true));
		ManagedClient client = this.services.client(name);
		Object customize = Proxy.newProxyInstance(classLoader, new Class<?>[] { customizer },
				(p, m, a) -> "customize".equals(m.getName()) ? advise((ProxyFactory) a[0], (Class<?>) a[1], client)
						: objectMethod(p, m, a));
		invoke(factoryBuilder, "proxyFactoryCustomizer", customize);
		return null;
	}

	private Object advise(ProxyFactory factory, Class<?> serviceType, ManagedClient client) {
		TriageFallback<?> fallback = this.services.fallback(client, serviceType);
		Map<Method, String> keys = new ConcurrentHashMap<>();
		factory.addAdvice(0, (MethodInterceptor) (invocation) -> call(client, fallback, serviceType, keys, invocation));
		return null;
	}

	private static Object call(ManagedClient client, TriageFallback<?> fallback, Class<?> serviceType,
			Map<Method, String> keys, MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		if (method.isDefault() || method.getDeclaringClass() == Object.class) {
			return invocation.proceed();
		}
		boolean[] first = { true };
		// A clone taken before the first proceed() can run the rest of the chain again (one taken after it would
		// find the chain used up and call the proxy's missing target); each retry proceeds on a clone of it.
		ProxyMethodInvocation pristine = (ProxyMethodInvocation) ((ProxyMethodInvocation) invocation).invocableClone();
		String methodKey = keys.computeIfAbsent(method, (m) -> ManagedHttpServices.methodKey(serviceType, m));
		return ManagedHttpServices.call(client, fallback, methodKey, method,
				invocation.getArguments(), () -> {
					if (first[0]) {
						first[0] = false;
						return invocation.proceed();
					}
					return pristine.invocableClone().proceed();
				});
	}

	private static Object invoke(Object target, String name, Object... args) {
		for (Method method : target.getClass().getMethods()) {
			if (method.getName().equals(name) && method.getParameterCount() == args.length) {
				ReflectionUtils.makeAccessible(method);
				return ReflectionUtils.invokeMethod(method, target, args);
			}
		}
		throw new IllegalStateException("No method " + name + " on " + target.getClass().getName());
	}

	private static Object objectMethod(Object proxy, Method method, Object[] args) {
		return switch (method.getName()) {
			case "equals" -> proxy == args[0];
			case "hashCode" -> System.identityHashCode(proxy);
			case "toString" -> "Triage HTTP service groups";
			default -> throw new UnsupportedOperationException(method.getName());
		};
	}

	/**
	 * Return whether an element carries an annotation of that class name.
	 * @param element the method or type
	 * @param annotationName the annotation's class name
	 * @return whether it is present
	 */
	public static boolean annotated(java.lang.reflect.AnnotatedElement element, String annotationName) {
		for (Annotation annotation : element.getAnnotations()) {
			if (annotation.annotationType().getName().equals(annotationName)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Refuses a group that must not run under Triage (a second breaker or retry layer around it).
	 */
	@FunctionalInterface
	public interface GroupCheck {

		/**
		 * Check a group.
		 * @param group the group's name
		 * @param serviceTypes its service interfaces
		 */
		void check(String group, Iterable<Class<?>> serviceTypes);

	}

}
