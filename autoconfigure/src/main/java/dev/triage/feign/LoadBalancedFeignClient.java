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

import java.io.IOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;

import dev.triage.engine.Call;
import dev.triage.engine.PrivateFields;
import feign.Client;
import feign.Request;
import feign.Response;
import feign.Util;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.cloud.client.loadbalancer.LoadBalancerClient;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.cloud.openfeign.loadbalancer.FeignBlockingLoadBalancerClient;
import org.springframework.cloud.openfeign.loadbalancer.LoadBalancerFeignRequestTransformer;

/**
 * Spring Cloud LoadBalancer's Feign client (what a {@code @FeignClient} without a {@code url} sends through: the
 * request's host is a service id), built again for the calls Triage manages:
 * <ul>
 * <li>without Spring Cloud LoadBalancer's own retries: whenever Spring Retry is on the classpath and
 * {@code spring.cloud.loadbalancer.retry} is on (its default), Spring Cloud's client is a
 * {@code RetryableFeignBlockingLoadBalancerClient}, which sends requests again to another instance behind the
 * policy table (SPEC §5). Each of Triage's attempts goes through the load balancer, which chooses an instance;</li>
 * <li>an attempt on a channel goes to the channel's address, not through the load balancer (its host is not a
 * service id);</li>
 * <li>a service with no instance is an unknown host, reached by no request: the load balancer answers 503 by
 * itself then, which Triage would take for the upstream's answer.</li>
 * </ul>
 * A call Triage does not manage (a Feign client with {@code enabled: false}) goes through Spring Cloud's client as
 * it was built. A Feign client with a {@code url} sends with the HTTP client alone, as Spring Cloud OpenFeign
 * arranges for any load-balancing client ({@link #getDelegate()}).
 */
public final class LoadBalancedFeignClient extends FeignBlockingLoadBalancerClient {

	private static final Log logger = LogFactory.getLog(LoadBalancedFeignClient.class);

	private static final String RETRYING = "org.springframework.cloud.openfeign.loadbalancer."
			+ "RetryableFeignBlockingLoadBalancerClient";

	private final Client built;

	private final Client direct;

	private LoadBalancedFeignClient(Client built, Client direct, LoadBalancerClient loadBalancer,
			LoadBalancerClientFactory factory, List<LoadBalancerFeignRequestTransformer> transformers) {
		super(new HandedOn(direct), loadBalancer, factory, transformers);
		this.built = built;
		this.direct = direct;
	}

	/**
	 * Build Spring Cloud LoadBalancer's Feign client again as above.
	 * @param client a Feign client bean
	 * @return the client built again, or {@code client} itself when it does not balance (or cannot be read: said)
	 */
	@SuppressWarnings("unchecked")
	public static Object of(Object client) {
		// By name: its class needs Spring Retry, which may be absent.
		boolean retrying = client.getClass().getName().equals(RETRYING);
		if (!retrying && !(client instanceof FeignBlockingLoadBalancerClient) || client instanceof LoadBalancedFeignClient) {
			return client;
		}
		try {
			LoadBalancedFeignClient rebuilt = new LoadBalancedFeignClient((Client) client,
					(Client) PrivateFields.read(client, "delegate"),
					(LoadBalancerClient) PrivateFields.read(client, "loadBalancerClient"),
					(LoadBalancerClientFactory) PrivateFields.read(client, "loadBalancerClientFactory"),
					(List<LoadBalancerFeignRequestTransformer>) PrivateFields.read(client, "transformers"));
			if (retrying) {
				logger.info("Feign clients without a url send through Spring Cloud LoadBalancer without its retries "
						+ "(spring.cloud.loadbalancer.retry, on with Spring Retry on the classpath), which sent "
						+ "requests again to another instance behind Triage's policy table; each of Triage's "
						+ "attempts goes through the load balancer");
			}
			return rebuilt;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.warn("Triage cannot build Spring Cloud LoadBalancer's Feign client again (" + ex + "): "
					+ (retrying ? "it may send requests again behind the policy table, a POST included (to fix: "
							+ "spring.cloud.loadbalancer.retry.enabled=false); " : "")
					+ "a channel of a client without a url goes through the load balancer, and a service with no "
					+ "instance reads as an upstream's 503");
			return client;
		}
	}

	@Override
	public Response execute(Request request, Request.Options options) throws IOException {
		Call call = Call.innermost();
		if (call == null) {
			return this.built.execute(request, options);
		}
		if (!call.onPrimaryChannel()) {
			return this.direct.execute(request, options);
		}
		// An earlier attempt's, which failed on its way out, is not this one's.
		call.takeHandedOn();
		Response response = super.execute(request, options);
		if (!call.takeHandedOn()) {
			Util.ensureClosed(response.body());
			throw new UnknownHostException("Spring Cloud LoadBalancer has no instance of service '"
					+ URI.create(request.url()).getHost() + "' (it answered " + response.status() + " by itself)");
		}
		return response;
	}

	/**
	 * The HTTP client, as Spring Cloud OpenFeign hands it to a Feign client with a {@code url}.
	 */
	@Override
	public Client getDelegate() {
		return this.direct;
	}

	/**
	 * The HTTP client under the load balancer, telling the call that the load balancer handed its attempt on.
	 */
	private record HandedOn(Client client) implements Client {

		@Override
		public Response execute(Request request, Request.Options options) throws IOException {
			Call call = Call.innermost();
			if (call != null) {
				call.handedOn();
			}
			return this.client.execute(request, options);
		}

	}

}
