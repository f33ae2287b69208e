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

package dev.triage.support;

import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the Spring tests that call the test clients against one WireMock upstream on 127.0.0.1.
 */
public abstract class LoopbackUpstream {

	@RegisterExtension
	protected static WireMockExtension upstream = WireMocks.loopback();

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.inventory", upstream::baseUrl);
		registry.add("test.upstream.billing", upstream::baseUrl);
	}

	@Autowired
	protected InventoryClient inventory;

	@Autowired
	protected BillingClient billing;

	@Autowired(required = false)
	@Qualifier("httpInventory")
	private InventoryClient httpInventory;

	@Autowired(required = false)
	@Qualifier("httpBilling")
	private BillingClient httpBilling;

	/**
	 * Return the kind of client this test calls through; a subclass of a contract test overrides it to run the
	 * same tests over an HTTP service client.
	 * @return the kind
	 */
	protected ClientKind clientKind() {
		return ClientKind.FEIGN;
	}

	@BeforeEach
	void callThroughTheClientKind() {
		if (clientKind() == ClientKind.HTTP_SERVICE) {
			this.inventory = this.httpInventory;
			this.billing = this.httpBilling;
		}
	}

	/**
	 * Return how many requests reached the upstream since the last reset: a request an earlier test left waiting
	 * on a delayed answer is logged by WireMock only once answered, after that test's reset, and is told apart by
	 * its stub, which the reset removed.
	 * @return the count
	 */
	protected static long wireCount() {
		Set<UUID> stubs = upstream.getStubMappings()
			.stream()
			.map(StubMapping::getId)
			.collect(Collectors.toSet());
		return upstream.getAllServeEvents()
			.stream()
			.filter((event) -> !event.getWasMatched() || event.getStubMapping() == null
					|| stubs.contains(event.getStubMapping().getId()))
			.count();
	}

}
