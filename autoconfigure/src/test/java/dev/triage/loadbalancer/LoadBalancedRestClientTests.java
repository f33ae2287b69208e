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
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An {@code @HttpExchange} client put under Triage with {@code TriageHttpServices.createClient} over a
 * {@code RestClient} from a {@code @LoadBalanced} builder, with Spring Retry on the classpath (Spring Cloud
 * LoadBalancer's interceptor is then the retrying one, told here to retry everything it can): on both Boot lines,
 * only the table's requests reach the two instances of {@code stock}.
 */
@WithoutProtection
@SpringBootTest(classes = LoadBalancedRestClientTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.loadbalancer.retry.retry-on-all-operations=true",
				"spring.cloud.loadbalancer.retry.retryable-status-codes=500,503",
				"spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
				"triage.policies.5xx.backoff.initial=1ms" })
class LoadBalancedRestClientTests extends LoadBalancedInstances {

	@DynamicPropertySource
	static void instances(DynamicPropertyRegistry registry) {
		stockInstances(registry);
		registry.add("triage.clients.stock.channels.backup", backup::baseUrl);
	}

	@Autowired
	TriageHttpServices triage;

	@Autowired
	@LoadBalanced
	RestClient.Builder balanced;

	@Test
	void aGetAnswered500IsSentAsOftenAsTheTableSays() {
		stub(500);

		Throwable thrown = catchThrowable(() -> stock().item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(4);
		assertThat(wire(first) + wire(second)).as("the 5xx row's 4 attempts").isEqualTo(4);
		assertThat(wire(first)).as("the load balancer chooses an instance for every attempt").isPositive();
		assertThat(wire(second)).as("the load balancer chooses an instance for every attempt").isPositive();
		assertThat(wire(backup)).as("a 500 does not fail over").isZero();
	}

	@Test
	void aPlainRestClientUnderTriageSendsAsTheTableSays() {
		stub(500);
		RestClient plain = this.balanced.baseUrl("http://stock").apply(this.triage.forClient("stock")).build();

		Throwable thrown = catchThrowable(() -> plain.get().uri("/items/1").retrieve().body(String.class));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(4);
		assertThat(wire(first) + wire(second)).as("the 5xx row's 4 attempts, not the load balancer's").isEqualTo(4);
		assertThat(wire(first)).as("an instance for every attempt").isPositive();
		assertThat(wire(second)).as("an instance for every attempt").isPositive();
	}

	@Test
	void a503FailsOverToTheBackupChannelsAddress() {
		stub(503);
		backup.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(200).withBody("from backup")));

		assertThat(stock().item("1")).isEqualTo("from backup");
		assertThat(wire(first) + wire(second)).as("one attempt on the service, then the channel").isEqualTo(1);
		assertThat(wire(backup)).isEqualTo(1);
	}

	@Test
	void aServiceWithoutAnInstanceReachedNoWire() {
		StockApi ghost = this.triage.createClient("ghost", StockApi.class, this.balanced.baseUrl("http://ghost").build());

		Throwable thrown = catchThrowable(() -> ghost.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as("no address for the service id").isEqualTo(TransportFailure.UNKNOWN_HOST);
		assertThat(failure.attempts()).as("nothing reached a wire").isZero();
		assertThat(failure.getCause()).hasMessageContaining("no instance of service 'ghost'");
	}

	@Test
	void aPostAnswered500IsSentOnce() {
		for (WireMockExtension instance : new WireMockExtension[] { first, second }) {
			instance.stubFor(post(urlPathEqualTo("/orders")).willReturn(aResponse().withStatus(500)));
		}

		Throwable thrown = catchThrowable(() -> stock().order("{\"sku\":\"1\"}"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wire(first) + wire(second)).as("a write that may have run is not sent again").isEqualTo(1);
	}

	@Test
	void aPlainCallNotUnderTriageKeepsSpringCloudsRetries() {
		for (WireMockExtension instance : new WireMockExtension[] { first, second }) {
			instance.stubFor(get(urlPathEqualTo("/items/2")).willReturn(aResponse().withStatus(500)));
		}
		RestClient plain = this.balanced.baseUrl("http://stock").build();

		catchThrowable(() -> plain.get().uri("/items/2").retrieve().toBodilessEntity());

		assertThat(wire(first) + wire(second)).as("the load balancer retried on the next instances").isGreaterThan(1);
	}

	private StockApi stock() {
		return this.triage.createClient("stock", StockApi.class, this.balanced.baseUrl("http://stock").build());
	}

	interface StockApi {

		@GetExchange("/items/{id}")
		String item(@PathVariable("id") String id);

		@PostExchange("/orders")
		String order(@RequestBody String order);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

		@Bean
		@LoadBalanced
		RestClient.Builder balancedRestClientBuilder() {
			return RestClient.builder();
		}

	}

}
