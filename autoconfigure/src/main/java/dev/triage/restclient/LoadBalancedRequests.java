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

import java.io.IOException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.triage.engine.Call;
import dev.triage.engine.PrivateFields;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.loadbalancer.LoadBalancerClient;
import org.springframework.cloud.client.loadbalancer.LoadBalancerInterceptor;
import org.springframework.cloud.client.loadbalancer.LoadBalancerRequestFactory;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Spring Cloud LoadBalancer's interceptor on a managed client's {@code RestClient} (an HTTP service group without a
 * base URL, or with an {@code lb://} one, on Spring Boot 4; a {@code @LoadBalanced} builder), taken over for the
 * calls Triage manages, as {@code LoadBalancedFeignClient} does for Feign:
 * <ul>
 * <li>without Spring Cloud LoadBalancer's own retries ({@code RetryLoadBalancerInterceptor}, whenever Spring Retry
 * is on the classpath): they sent requests again to another instance behind the policy table;</li>
 * <li>an attempt on a channel goes to the channel's address, not through the load balancer;</li>
 * <li>a service with no instance is an unknown host, reached by no request (the load balancer throws an
 * {@code IllegalStateException} then).</li>
 * </ul>
 * A request outside a managed call goes through Spring Cloud's interceptor as it is. Loaded only with Spring Cloud
 * Commons on the classpath.
 */
final class LoadBalancedRequests implements ClientHttpRequestInterceptor {

	private static final Log logger = LogFactory.getLog(LoadBalancedRequests.class);

	private static final String PACKAGE = "org.springframework.cloud.client.loadbalancer.";

	private static final String RETRYING = PACKAGE + "RetryLoadBalancerInterceptor";

	private static final String DEFERRING = PACKAGE + "DeferringLoadBalancerInterceptor";

	/** By name: the retrying one needs Spring Retry, which may be absent. */
	private static final Set<String> LOAD_BALANCING = Set.of(RETRYING, DEFERRING, PACKAGE + "LoadBalancerInterceptor");

	/** Whether the retries' being off was said: once, not once per client. */
	private static final AtomicBoolean SAID = new AtomicBoolean();

	private final ClientHttpRequestInterceptor built;

	/** The interceptor that balances without retrying, resolved at the first managed request. */
	private volatile ClientHttpRequestInterceptor balancing;

	private LoadBalancedRequests(ClientHttpRequestInterceptor built) {
		this.built = built;
	}

	/**
	 * Take over Spring Cloud LoadBalancer's interceptors in a builder's list.
	 * @param interceptors the builder's interceptors
	 */
	static void takeOver(List<ClientHttpRequestInterceptor> interceptors) {
		interceptors.replaceAll((interceptor) -> LOAD_BALANCING.contains(interceptor.getClass().getName())
				? new LoadBalancedRequests(interceptor) : interceptor);
	}

	/**
	 * Take the interceptor made by {@link #takeOver} out of a builder's list.
	 * @param interceptors the builder's interceptors
	 * @return the interceptor taken out, {@code null} when there was none
	 */
	static ClientHttpRequestInterceptor takeOut(List<ClientHttpRequestInterceptor> interceptors) {
		ClientHttpRequestInterceptor found = null;
		for (ClientHttpRequestInterceptor interceptor : interceptors) {
			if (interceptor instanceof LoadBalancedRequests) {
				found = interceptor;
			}
		}
		interceptors.removeIf(LoadBalancedRequests.class::isInstance);
		return found;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Call call = Call.innermost();
		if (call == null) {
			return this.built.intercept(request, body, execution);
		}
		if (!call.onPrimaryChannel()) {
			return execution.execute(request, body);
		}
		HandedOn handedOn = new HandedOn(execution);
		try {
			return balancing().intercept(request, body, handedOn);
		}
		catch (IllegalStateException ex) {
			if (handedOn.handed) {
				throw ex;
			}
			// No HTTP client was asked: its exchange is not one that went out without Triage's handler.
			call.takeExchange();
			UnknownHostException none = new UnknownHostException(
					"Spring Cloud LoadBalancer has no instance of service '" + request.getURI().getHost() + "'");
			none.initCause(ex);
			throw none;
		}
	}

	private ClientHttpRequestInterceptor balancing() {
		ClientHttpRequestInterceptor balancing = this.balancing;
		if (balancing == null) {
			balancing = withoutRetries(this.built);
			this.balancing = balancing;
		}
		return balancing;
	}

	/**
	 * The load-balancing interceptor Spring Cloud made (the deferring one resolved to it), without retries.
	 */
	private static ClientHttpRequestInterceptor withoutRetries(ClientHttpRequestInterceptor interceptor) {
		try {
			if (interceptor.getClass().getName().equals(DEFERRING)) {
				Object resolved = ((ObjectProvider<?>) PrivateFields.read(interceptor, "loadBalancerInterceptorProvider"))
					.getIfAvailable();
				if (resolved == null) {
					return interceptor;
				}
				interceptor = (ClientHttpRequestInterceptor) resolved;
			}
			if (!interceptor.getClass().getName().equals(RETRYING)) {
				return interceptor;
			}
			LoadBalancerInterceptor balancing = new LoadBalancerInterceptor(
					(LoadBalancerClient) PrivateFields.read(interceptor, "loadBalancer"),
					(LoadBalancerRequestFactory) PrivateFields.read(interceptor, "requestFactory"));
			if (SAID.compareAndSet(false, true)) {
				logger.info("RestClients under Triage send through Spring Cloud LoadBalancer without its retries "
						+ "(spring.cloud.loadbalancer.retry, on with Spring Retry on the classpath), which sent "
						+ "requests again to another instance behind Triage's policy table");
			}
			return balancing;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.warn("Triage cannot take over Spring Cloud LoadBalancer's interceptor (" + ex + "): it may send "
					+ "requests again behind the policy table, a POST included (to fix: "
					+ "spring.cloud.loadbalancer.retry.enabled=false)");
			return interceptor;
		}
	}

	/**
	 * The rest of the chain, noting that the load balancer chose an instance and handed the request on.
	 */
	private static final class HandedOn implements ClientHttpRequestExecution {

		private final ClientHttpRequestExecution execution;

		private boolean handed;

		HandedOn(ClientHttpRequestExecution execution) {
			this.execution = execution;
		}

		@Override
		public ClientHttpResponse execute(HttpRequest request, byte[] body) throws IOException {
			this.handed = true;
			return this.execution.execute(request, body);
		}

	}

}
