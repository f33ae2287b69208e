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
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.triage.engine.Call;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.PrivateFields;
import feign.Client;
import feign.Request;
import feign.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A Feign client that Spring Cloud LoadBalancer puts in front of the HTTP client ({@code @FeignClient} without a
 * {@code url}: the request's host is a service id), taken apart and built again for Triage:
 * <ul>
 * <li>without Spring Cloud LoadBalancer's own retries ({@code RetryableFeignBlockingLoadBalancerClient}, which
 * Spring Cloud puts there whenever Spring Retry is on the classpath and {@code spring.cloud.loadbalancer.retry} is
 * on, its default): they sent requests again, to another instance, behind the policy table (SPEC §5). Each of
 * Triage's attempts still goes through the load balancer, which chooses an instance for it;</li>
 * <li>with the HTTP client under it checked as any other ({@link UnderlyingClient});</li>
 * <li>with that HTTP client reachable directly ({@link #direct()}): a channel is an address, not a service id;</li>
 * <li>saying whether the load balancer handed an attempt to the HTTP client ({@link #reached()}): without an
 * instance of the service it answers 503 itself, and nothing reached a wire.</li>
 * </ul>
 * Read by reflection: Spring Cloud LoadBalancer is not a dependency of Triage's.
 */
final class LoadBalancedClient {

	private static final Log logger = LogFactory.getLog(LoadBalancedClient.class);

	private static final String PACKAGE = "org.springframework.cloud.openfeign.loadbalancer.";

	private static final String BALANCING = PACKAGE + "FeignBlockingLoadBalancerClient";

	private static final String RETRYING = PACKAGE + "RetryableFeignBlockingLoadBalancerClient";

	private final Client balanced;

	private final Client direct;

	private LoadBalancedClient(Client balanced, Client direct) {
		this.balanced = balanced;
		this.direct = direct;
	}

	/**
	 * Take a load-balancing Feign client apart and build it again as above.
	 * @param client the Feign client Spring Cloud OpenFeign built
	 * @param managed the managed client
	 * @param checked checks the HTTP client under the load balancer (and may build it again)
	 * @return the client built again, {@code null} when {@code client} does not balance (or cannot be taken apart:
	 * said at WARN)
	 */
	static LoadBalancedClient of(Client client, ManagedClient managed, UnaryOperator<Client> checked) {
		String type = client.getClass().getName();
		boolean retrying = type.equals(RETRYING);
		if (!retrying && !type.equals(BALANCING)) {
			return null;
		}
		try {
			Client underlying = (Client) PrivateFields.read(client, "delegate");
			Object loadBalancer = PrivateFields.read(client, "loadBalancerClient");
			Object factory = PrivateFields.read(client, "loadBalancerClientFactory");
			Object transformers = PrivateFields.read(client, "transformers");
			Class<?> balancing = Class.forName(BALANCING, false, client.getClass().getClassLoader());
			Constructor<?> constructor = balancing.getConstructor(Client.class,
					client.getClass().getDeclaredField("loadBalancerClient").getType(),
					client.getClass().getDeclaredField("loadBalancerClientFactory").getType(), List.class);
			Client direct = checked.apply(underlying);
			Client balanced = (Client) constructor.newInstance(new Reached(direct, managed), loadBalancer, factory,
					transformers);
			if (retrying) {
				logger.info("Client '" + managed.name() + "': sends through Spring Cloud LoadBalancer without its "
						+ "retries (spring.cloud.loadbalancer.retry, on with Spring Retry on the classpath), which "
						+ "sent requests again to another instance behind Triage's policy table; each of Triage's "
						+ "attempts goes through the load balancer");
			}
			return new LoadBalancedClient(balanced, direct);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			if (retrying) {
				logger.warn("Client '" + managed.name() + "': Triage cannot take Spring Cloud LoadBalancer's "
						+ "retrying Feign client apart (" + ex + "): it may send requests again behind the policy "
						+ "table, a POST included. To fix: spring.cloud.loadbalancer.retry.enabled=false");
			}
			return null;
		}
	}

	/**
	 * Return the Feign client that balances, without retries of its own.
	 */
	Client balanced() {
		return this.balanced;
	}

	/**
	 * Return the HTTP client under the load balancer, for attempts on a channel: an address, sent to as it is.
	 */
	Client direct() {
		return this.direct;
	}

	/**
	 * Return whether the load balancer handed the current attempt of the call to the HTTP client, and forget it
	 * for the next one.
	 * @param call the call
	 * @return whether it did
	 */
	static boolean reached(Call call) {
		return call.takeHandedOn();
	}

	/**
	 * The HTTP client under the load balancer, telling the call that an attempt reached it.
	 */
	private record Reached(Client client, ManagedClient managed) implements Client {

		@Override
		public Response execute(Request request, Request.Options options) throws IOException {
			Call call = Call.current(this.managed);
			if (call != null) {
				call.handedOn();
			}
			return this.client.execute(request, options);
		}

	}

}
