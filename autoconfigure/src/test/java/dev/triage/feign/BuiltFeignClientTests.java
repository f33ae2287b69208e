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

import dev.triage.UpstreamResponseException;
import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClientBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A Feign client built while the application runs, with Spring Cloud's {@code FeignClientBuilder}: managed like a
 * declared one, keyed by its name, or by its {@code contextId} when it has one (docs/configuration.md).
 */
@WithoutProtection
@SpringBootTest(classes = BuiltFeignClientTests.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.policies.5xx.backoff.initial=1ms", "triage.clients.built.policies.500.max-attempts=3",
				"triage.clients.built-admin.policies.500.max-attempts=2" })
class BuiltFeignClientTests extends LoopbackUpstream {

	@Autowired
	ApplicationContext context;

	@BeforeEach
	void answer500() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
	}

	@Test
	void aBuiltClientIsUnderTheTableOfItsName() {
		StockApi stock = new FeignClientBuilder(this.context).forType(StockApi.class, "built")
			.url(upstream.baseUrl())
			.build();

		Throwable thrown = catchThrowable(stock::item);

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) thrown).response().client()).isEqualTo("built");
		assertThat(wireCount()).as("triage.clients.built's 500 row").isEqualTo(3);
	}

	@Test
	void aBuiltClientWithAContextIdIsKeyedByIt() {
		StockApi admin = new FeignClientBuilder(this.context).forType(StockApi.class, "built")
			.contextId("built-admin")
			.url(upstream.baseUrl())
			.build();

		Throwable thrown = catchThrowable(admin::item);

		assertThat(((UpstreamResponseException) thrown).response().client()).isEqualTo("built-admin");
		assertThat(wireCount()).as("triage.clients.built-admin's 500 row").isEqualTo(2);
	}

	interface StockApi {

		@GetMapping("/items/1")
		String item();

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { InventoryClient.class, BillingClient.class })
	static class App {

	}

}
