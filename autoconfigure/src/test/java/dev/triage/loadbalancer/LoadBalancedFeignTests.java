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
import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Feign clients without a URL, behind Spring Cloud LoadBalancer with Spring Retry on the classpath (so Spring
 * Cloud builds its retrying load-balanced client, told here to retry everything it can): the service {@code stock}
 * has two instances and a channel {@code backup} given as an address; {@code ghost} has no instance;
 * {@code direct} has a URL (the backup's). Every
 * server counts what reaches it.
 */
@WithoutProtection
@SpringBootTest(classes = LoadBalancedFeignTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.loadbalancer.retry.retry-on-all-operations=true",
				"spring.cloud.loadbalancer.retry.retryable-status-codes=500,503",
				"spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
				"spring.cloud.openfeign.client.config.stock.read-timeout=2000",
				"triage.policies.5xx.backoff.initial=1ms", "triage.policies.read-timeout.backoff.initial=1ms",
				"triage.clients.flaky.policies.connection-refused.max-attempts=2" })
class LoadBalancedFeignTests extends LoadBalancedInstances {

	/** A loopback port nothing listens on: an instance that refuses connections. */
	static final int CLOSED = closedPort();

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		stockInstances(registry);
		registry.add("triage.clients.stock.channels.backup", backup::baseUrl);
		registry.add("test.direct.url", backup::baseUrl);
		registry.add("spring.cloud.discovery.client.simple.instances.flaky[0].uri", () -> "http://127.0.0.1:" + CLOSED);
		registry.add("spring.cloud.discovery.client.simple.instances.flaky[1].uri", first::baseUrl);
	}

	@Autowired
	ApplicationContext context;

	@Autowired
	Stock stock;

	@Autowired
	Ghost ghost;

	@Autowired
	Direct direct;

	@Autowired
	Flaky flaky;

	@Test
	void springCloudBuildsItsRetryingClientHere() {
		// Else these tests would prove nothing about its retries.
		assertThat(this.context.containsBeanDefinition("feignRetryClient")).isTrue();
	}

	@Test
	void aClientWithAUrlSendsToItWithoutTheLoadBalancer() {
		backup.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(200).withBody("direct")));

		assertThat(this.direct.item("1")).isEqualTo("direct");
		assertThat(wire(backup)).isEqualTo(1);
		assertThat(wire(first) + wire(second)).isZero();
	}

	@Test
	void aGetAnswered500IsSentAsOftenAsTheTableSaysAcrossTheInstances() {
		stub(500);

		Throwable thrown = catchThrowable(() -> this.stock.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(4);
		assertThat(wire(first) + wire(second)).as("the 5xx row's 4 attempts, each load balanced").isEqualTo(4);
		assertThat(wire(backup)).as("a 500 does not fail over").isZero();
	}

	@Test
	void aPostThatTimesOutReachesOneInstanceOnce() {
		for (WireMockExtension instance : new WireMockExtension[] { first, second }) {
			instance.stubFor(post(urlPathEqualTo("/orders")).willReturn(aResponse().withStatus(200)
				.withFixedDelay(5_000)
				.withBody("taken")));
		}

		Throwable thrown = catchThrowable(() -> this.stock.order("{\"sku\":\"1\"}"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(wire(first) + wire(second)).as("a write that may have run is not sent again").isEqualTo(1);
	}

	@Test
	void a503FailsOverToTheBackupChannelsAddress() {
		stub(503);
		backup.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(200).withBody("from backup")));

		assertThat(this.stock.item("1")).isEqualTo("from backup");
		assertThat(wire(first) + wire(second)).as("one attempt on the service, then the channel").isEqualTo(1);
		assertThat(wire(backup)).isEqualTo(1);
	}

	@Test
	void aServiceWithoutAnInstanceReachedNoWire() {
		Throwable thrown = catchThrowable(() -> this.ghost.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as("no address for the service id").isEqualTo(TransportFailure.UNKNOWN_HOST);
		assertThat(failure.attempts()).as("nothing reached a wire").isZero();
		assertThat(failure.getCause()).hasMessageContaining("no instance of service 'ghost'");
	}

	@Test
	void aSecondAttemptOnARefusedConnectionGoesToTheNextInstance() {
		first.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(200).withBody("up")));

		// connection-refused has 2 attempts for flaky: a call that meets the refusing instance tries the next one.
		for (int i = 0; i < 4; i++) {
			assertThat(this.flaky.item("1")).isEqualTo("up");
		}
		assertThat(wire(first)).isEqualTo(4);
	}

	private static int closedPort() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	@FeignClient(name = "stock")
	interface Stock {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

		@PostMapping("/orders")
		String order(@RequestBody String order);

	}

	@FeignClient(name = "ghost")
	interface Ghost {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@FeignClient(name = "flaky")
	interface Flaky {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@FeignClient(name = "direct", url = "${test.direct.url}")
	interface Direct {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { Stock.class, Ghost.class, Direct.class, Flaky.class })
	static class Application {

	}

}
