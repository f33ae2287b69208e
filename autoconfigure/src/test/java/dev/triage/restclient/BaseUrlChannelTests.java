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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.TriageHttpServices;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * SPEC §9 over HTTP service clients put under a client with {@code createClient} or {@code forClient}: a channel
 * replaces the primary's base URL, base path included, where the {@code RestClient}'s base URL is readable (Spring's
 * builder, {@code baseUrl(...)}); a request built on another URL moves by scheme, host and port. And the endpoint
 * says a client has a fallback when one of its service interfaces has one, and shows the base URL read as its
 * primary's.
 */
@SpringBootTest(classes = { TestApplication.class, BaseUrlChannelTests.Fallbacks.class },
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=base-url-channels", "management.endpoints.web.exposure.include=triage" })
class BaseUrlChannelTests extends LoopbackUpstream {

	@RegisterExtension
	static WireMockExtension backup = WireMocks.loopback();

	@DynamicPropertySource
	static void channels(DynamicPropertyRegistry registry) {
		registry.add("triage.clients.based.channels.backup", () -> backup.baseUrl() + "/alt");
		registry.add("triage.clients.planned.channels.backup", () -> backup.baseUrl() + "/alt/");
		registry.add("triage.clients.accented.channels.backup", () -> backup.baseUrl() + "/café/v2");
	}

	@Autowired
	TriageHttpServices triage;

	@Autowired
	TriageEndpoint endpoint;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		backup.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("from backup")));
	}

	@Test
	void aServiceInterfaceOnABasePathMovesToTheChannelsBasePath() {
		InventoryClient client = this.triage.createClient("based", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl() + "/api").build());

		assertThat(client.item("1")).isEqualTo("from backup");

		assertThat(wireCount()).isEqualTo(1);
		upstream.verify(getRequestedFor(urlPathEqualTo("/api/items/1")));
		backup.verify(1, anyRequestedFor(anyUrl()));
		backup.verify(getRequestedFor(urlPathEqualTo("/alt/items/1")));
	}

	@Test
	void aBasePathWithCharactersSpringEncodesIsReplacedToo() {
		InventoryClient client = this.triage.createClient("based", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl() + "/café/api").build());

		assertThat(client.item("4")).isEqualTo("from backup");

		upstream.verify(getRequestedFor(urlPathEqualTo("/caf%C3%A9/api/items/4")));
		backup.verify(1, anyRequestedFor(anyUrl()));
		backup.verify(getRequestedFor(urlPathEqualTo("/alt/items/4")));
	}

	@Test
	void aChannelsBasePathWithNonAsciiCharactersIsSentEncoded() {
		InventoryClient client = this.triage.createClient("accented", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl() + "/api").build());

		assertThat(client.item("5")).isEqualTo("from backup");

		backup.verify(1, anyRequestedFor(anyUrl()));
		backup.verify(getRequestedFor(urlPathEqualTo("/caf%C3%A9/v2/items/5")));
	}

	@Test
	void aRestClientsBaseUrlWithATrailingSlashIsItsBaseToo() {
		RestClient client = RestClient.builder()
			.baseUrl(upstream.baseUrl() + "/api/")
			.apply(this.triage.forClient("planned"))
			.build();

		assertThat(client.get().uri("/items/2").retrieve().body(String.class)).isEqualTo("from backup");

		backup.verify(1, anyRequestedFor(anyUrl()));
		backup.verify(getRequestedFor(urlPathEqualTo("/alt/items/2")));
	}

	@Test
	void aRequestBuiltOnAnotherUrlMovesByItsOrigin() {
		RestClient client = RestClient.builder()
			.baseUrl(upstream.baseUrl() + "/api")
			.apply(this.triage.forClient("based"))
			.build();

		assertThat(client.get().uri(upstream.baseUrl() + "/apix/items/3").retrieve().body(String.class))
			.isEqualTo("from backup");

		backup.verify(getRequestedFor(urlPathEqualTo("/alt/apix/items/3")));
	}

	@Test
	void theEndpointShowsTheFallbackOfAServiceInterfaceAndTheBaseUrlRead() {
		this.triage.createClient("based", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).build());
		RestClient.builder().apply(this.triage.forClient("unbased")).build();

		assertThat(this.endpoint.client("based").fallback()).isTrue();
		assertThat(this.endpoint.clients().clients().get("based").fallback()).isTrue();
		assertThat(this.endpoint.client("unbased").fallback()).as("no service interface, no fallback").isFalse();
		assertThat(this.endpoint.client("based").channels().get(0).baseUrl()).as("the RestClient's base URL")
			.isEqualTo(upstream.baseUrl());
		assertThat(this.endpoint.client("unbased").channels().get(0).baseUrl()).as("a RestClient without one").isNull();
	}

	@Configuration(proxyBeanMethods = false)
	static class Fallbacks {

		@Bean
		TriageFallback<InventoryClient> inventoryFallback() {
			return (Throwable exception, OriginalResponse response) -> null;
		}

	}

}
