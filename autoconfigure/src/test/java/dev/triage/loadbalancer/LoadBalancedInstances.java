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

package dev.triage.loadbalancer;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.support.WireMocks;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * What the load-balanced tests share: the two instances of the service {@code stock} and a third server for a
 * channel or a client with a URL, each counting what reaches it; breakers closed around every test.
 */
abstract class LoadBalancedInstances {

	@RegisterExtension
	static WireMockExtension first = WireMocks.loopback();

	@RegisterExtension
	static WireMockExtension second = WireMocks.loopback();

	@RegisterExtension
	static WireMockExtension backup = WireMocks.loopback();

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	@AfterEach
	void closeBreakers() {
		this.breakers.getAllCircuitBreakers().forEach((breaker) -> breaker.reset());
	}

	/**
	 * Give the service {@code stock} its two instances.
	 * @param registry the test's properties
	 */
	static void stockInstances(DynamicPropertyRegistry registry) {
		registry.add("spring.cloud.discovery.client.simple.instances.stock[0].uri", first::baseUrl);
		registry.add("spring.cloud.discovery.client.simple.instances.stock[1].uri", second::baseUrl);
	}

	/** Both instances answer {@code GET /items/1} with this status. */
	static void stub(int status) {
		for (WireMockExtension instance : new WireMockExtension[] { first, second }) {
			instance.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(status)));
		}
	}

	/** The requests that reached a server. */
	static int wire(WireMockExtension server) {
		return server.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
