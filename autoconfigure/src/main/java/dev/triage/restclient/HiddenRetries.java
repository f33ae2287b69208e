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

import java.util.List;

import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.engine.HttpClient5Retries;
import dev.triage.engine.JdkClientResends;
import dev.triage.engine.ManagedClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;

/**
 * The retry layer hidden in a managed {@code RestClient}'s request factory (SPEC §11: "the request factory's own
 * retries are off"). Apache HttpClient 5, which the starter brings, retries on its own unless built with
 * {@code disableAutomaticRetries()}: an I/O error, a 429 or 503 (a POST included) is sent again behind the
 * table's back, after waiting out its {@code Retry-After} whatever the deadline says.
 * <ul>
 * <li>A builder given no request factory ({@code RestClient.builder()}, {@code RestClient.create()}) would get
 * Spring's default when built: put under a client's table, it gets that default without the retries and with the
 * attempt's hard bound.</li>
 * <li>A builder with a request factory of its own keeps it; on HttpClient 5 it is checked by
 * {@link HttpClient5Retries}: retries left on are refused with what to build instead.</li>
 * <li>One on the JDK's {@code HttpURLConnection} or {@code HttpClient}, which send some requests again by
 * themselves with no way to stop them ({@link JdkClientResends}), is said once per client at WARN with the way
 * back, and its attempts' timeouts are lowered to what is left of the call's deadline ({@link JdkClientDeadline}).</li>
 * </ul>
 * Spring's builder does not say whether it has a request factory: its field is read. When it cannot be, the
 * builder is left as it is (a warning says so once).
 */
final class HiddenRetries {

	private static final Log logger = LogFactory.getLog(HiddenRetries.class);

	/** Spring's own test for its default: Apache HttpClient 5 first. */
	private static final boolean HTTP_CLIENT_5 = ClassUtils.isPresent("org.apache.hc.client5.http.classic.HttpClient",
			HiddenRetries.class.getClassLoader());

	/** Spring Cloud LoadBalancer's interceptors can be on a builder: taken over ({@link LoadBalancedRequests}). */
	private static final boolean LOAD_BALANCER = ClassUtils.isPresent(
			"org.springframework.cloud.client.loadbalancer.LoadBalancerInterceptor", HiddenRetries.class.getClassLoader());

	private static final String FIX = "build its HttpClient as AttemptAbortInterceptor.addTo(HttpClients.custom()"
			+ ".disableAutomaticRetries()) (dev.triage.engine: the attempt's hard bound, the timeout that fired), or "
			+ "leave the request factory to Spring Boot's RestClient.Builder";

	private static volatile boolean warned;

	/** The key of the warning that a client is on a JDK client ({@link ManagedClient#sayOnce}). */
	private static final String ON_JDK_CLIENT = "on a JDK client";

	/** The key of the warning that a client's attempts go out without Triage's attempt bound. */
	private static final String SENT_UNBOUND = "sent unbound";

	private HiddenRetries() {
	}

	/**
	 * Take Spring Cloud LoadBalancer's interceptor (taken over by {@link #remove}) and any Triage interceptor out
	 * of a builder's list, for Triage's interceptor to run the load balancer inside each of its attempts.
	 * @param interceptors the builder's interceptors
	 * @return the load balancer's interceptor, {@code null} when there is none
	 */
	static ClientHttpRequestInterceptor takeOutLoadBalancer(List<ClientHttpRequestInterceptor> interceptors) {
		ClientHttpRequestInterceptor balancer = null;
		for (ClientHttpRequestInterceptor interceptor : interceptors) {
			if (interceptor instanceof TriageRequestInterceptor triage && triage.balancer() != null) {
				balancer = triage.balancer();
			}
		}
		interceptors.removeIf(TriageRequestInterceptor.class::isInstance);
		if (LOAD_BALANCER) {
			ClientHttpRequestInterceptor listed = LoadBalancedRequests.takeOut(interceptors);
			balancer = (listed != null) ? listed : balancer;
		}
		return balancer;
	}

	/**
	 * Put a builder's requests under a client's table without a hidden retry layer: a builder without a request
	 * factory gets Spring's default on Apache HttpClient 5 without its retries; one with an HttpClient 5 of its
	 * own that retries is refused; Spring Cloud LoadBalancer's interceptor is taken over (without its retries).
	 * @param client the client
	 * @param builder the builder
	 * @throws IllegalStateException when the builder's HttpClient 5 retries on its own
	 */
	static void remove(ManagedClient client, RestClient.Builder builder) {
		if (LOAD_BALANCER) {
			builder.requestInterceptors(LoadBalancedRequests::takeOver);
		}
		if (!BuilderFields.readable(builder)) {
			return;
		}
		Object factory;
		try {
			factory = BuilderFields.read(builder, "requestFactory");
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			if (HTTP_CLIENT_5 && !warned) {
				warned = true;
				logger.warn("Triage cannot tell whether a RestClient.Builder has a request factory (" + ex
						+ "): one left to Spring's default keeps Apache HttpClient 5's own retries; give it a request "
						+ "factory built on AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())");
			}
			return;
		}
		if (factory instanceof ClientHttpRequestFactory given) {
			factory = JdkClientDeadline.unwrap(given);
		}
		if (factory instanceof SimpleClientHttpRequestFactory simple) {
			warnOnJdkClient(client, JdkClientResends.HTTP_URL_CONNECTION + " (SimpleClientHttpRequestFactory)");
			builder.requestFactory(JdkClientDeadline.of(simple, client));
		}
		else if (factory instanceof JdkClientHttpRequestFactory jdk) {
			warnOnJdkClient(client, JdkClientResends.HTTP_CLIENT + " (JdkClientHttpRequestFactory)");
			builder.requestFactory(JdkClientDeadline.of(jdk, client));
		}
		else if (!HTTP_CLIENT_5) {
			return;
		}
		else if (factory == null) {
			builder.requestFactory(HttpClient5.withoutRetries());
		}
		else {
			HttpClient5.check(client, factory);
		}
	}

	/**
	 * An attempt of a client went out on a request factory whose HTTP client has no Triage handler: unless the
	 * client's factory was already said to be such (a JDK client, an HttpClient 5 without the attempt bound), it is
	 * one Triage could not check: of a kind it does not know, set on the builder after {@code forClient} was applied,
	 * or by a group configurer that runs after Triage's. Said once per client at WARN.
	 * @param client the client
	 */
	static void sentUnbound(ManagedClient client) {
		if (client.sayOnce(SENT_UNBOUND) && !client.said(ON_JDK_CLIENT) && !client.said(HttpClient5Retries.WARNING)) {
			logger.warn("Client '" + client.name() + "': an attempt of its RestClient went out on a request factory Triage did "
					+ "not check, without Triage's attempt bound (a factory of a kind Triage does not know, one set on "
					+ "the builder after forClient(..) was applied, or one a group configurer set after Triage's): an "
					+ "HTTP client with retries of its own would send more requests than the table says. Set the "
					+ "request factory before applying forClient(..), and " + FIX);
		}
	}

	private static void warnOnJdkClient(ManagedClient client, String what) {
		if (client.sayOnce(ON_JDK_CLIENT)) {
			logger.warn("Client '" + client.name() + "': its RestClient's request factory sends with " + what
					+ JdkClientResends.CONSEQUENCE + ". To send what the table says, leave the request factory to "
					+ "Spring Boot's default, Apache HttpClient 5, which the starter brings (no other client factory "
					+ "chosen in its spring.http.client properties), or give it new "
					+ "HttpComponentsClientHttpRequestFactory(" + JdkClientResends.BOUND_HTTP_CLIENT_5 + ")");
		}
	}

	/**
	 * Loaded only when Apache HttpClient 5 is on the classpath.
	 */
	private static final class HttpClient5 {

		/**
		 * Spring's default ({@code HttpClients.createSystem()}) without its retries, with the attempt's hard bound.
		 */
		static ClientHttpRequestFactory withoutRetries() {
			return new HttpComponentsClientHttpRequestFactory(
					AttemptAbortInterceptor.addTo(HttpClients.custom().useSystemProperties().disableAutomaticRetries())
						.build());
		}

		/**
		 * Refuse a request factory of the application's own on an HttpClient 5 that retries on its own.
		 */
		static void check(ManagedClient client, Object factory) {
			if (factory instanceof HttpComponentsClientHttpRequestFactory own) {
				HttpClient5Retries.check(client.name(), own.getHttpClient(), "its RestClient's request factory", FIX,
						client::sayOnce);
			}
		}

	}

}
