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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP service groups without a base URL on Spring Boot 4, load balanced by Spring Cloud LoadBalancer (its group
 * configurer gives each such group {@code http://<group>} and its interceptor) with Spring Retry on the classpath
 * (so its interceptor is the retrying one, told here to retry everything it can): the group {@code stock} has two
 * instances and a channel {@code backup} given as an address; {@code ghost} has no instance. Every server counts
 * what reaches it.
 */
@WithoutProtection
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = LoadBalancedHttpServiceGroupTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.loadbalancer.retry.retry-on-all-operations=true",
				"spring.cloud.loadbalancer.retry.retryable-status-codes=500,503",
				"spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
				"spring.http.serviceclient.stock.read-timeout=2s", "triage.policies.5xx.backoff.initial=1ms",
				"triage.policies.read-timeout.backoff.initial=1ms" })
class LoadBalancedHttpServiceGroupTests extends LoadBalancedInstances {

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		stockInstances(registry);
		registry.add("triage.clients.stock.channels.backup", backup::baseUrl);
	}

	@Autowired
	ApplicationContext context;

	@Autowired
	StockApi stock;

	@Autowired
	GhostApi ghost;

	@Test
	void springCloudBuildsItsRetryingInterceptorHere() {
		// Else these tests would prove nothing about its retries.
		assertThat(this.context.getBean("loadBalancerInterceptor").getClass().getSimpleName())
			.isEqualTo("RetryLoadBalancerInterceptor");
	}

	@Test
	void aGetAnswered500IsSentAsOftenAsTheTableSaysAcrossTheInstances() {
		stub(500);

		Throwable thrown = catchThrowable(() -> this.stock.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(4);
		assertThat(wire(first) + wire(second)).as("the 5xx row's 4 attempts, each load balanced").isEqualTo(4);
		assertThat(wire(first)).as("spread over the instances").isPositive();
		assertThat(wire(second)).as("spread over the instances").isPositive();
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
	void aServiceWithoutAnInstanceReachedNoWire(CapturedOutput output) {
		Throwable thrown = catchThrowable(() -> this.ghost.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as("no address for the service id").isEqualTo(TransportFailure.UNKNOWN_HOST);
		assertThat(failure.attempts()).as("nothing reached a wire").isZero();
		assertThat(failure.getCause()).hasMessageContaining("no instance of service 'ghost'");
		assertThat(output).as("no HTTP client was asked: none to warn about")
			.doesNotContain("went out on a request factory Triage did not check");
	}

	interface StockApi {

		@GetExchange("/items/{id}")
		String item(@PathVariable("id") String id);

		@PostExchange("/orders")
		String order(@RequestBody String order);

	}

	interface GhostApi {

		@GetExchange("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportHttpServices(group = "stock", types = StockApi.class)
	@ImportHttpServices(group = "ghost", types = GhostApi.class)
	static class Application {

	}

}
