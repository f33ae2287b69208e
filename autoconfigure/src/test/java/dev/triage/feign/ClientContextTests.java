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

import dev.triage.engine.ManagedClients;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.UpstreamResponseException;
import dev.triage.support.BillingClient;
import dev.triage.support.CustomDecoderClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.WithoutProtection;
import feign.FeignException;
import feign.Retryer;
import feign.codec.ErrorDecoder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.context.annotation.Import;

/**
 * What each Feign client context ends up with: Triage's beans, the user's own beans where declared, and
 * nothing of Triage's where the client is switched off.
 */
@WithoutProtection
@SpringBootTest(classes = ClientContextTests.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "triage.clients.billing.enabled=false")
class ClientContextTests extends LoopbackUpstream {

	@Autowired
	FeignClientFactory feignClientFactory;

	@Autowired
	CustomDecoderClient custom;

	@Autowired
	ManagedClients managed;

	@Autowired
	RecordingObserver observer;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")));
	}

	@Test
	void managedClientGetsTriageDecoderAndRetryer() {
		assertThat(this.feignClientFactory.getInstance("inventory", ErrorDecoder.class))
			.isInstanceOf(TriageErrorDecoder.class);
		assertThat(this.feignClientFactory.getInstance("inventory", Retryer.class)).isInstanceOf(TriageRetryer.class);
		assertThat(catchThrowable(() -> this.inventory.item("1"))).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).as("the 5xx row: four attempts").isEqualTo(4);
	}

	@Test
	void usersOwnDecoderAndRetryerInTheClientConfigurationWin() {
		assertThat(this.feignClientFactory.getInstance("custom", ErrorDecoder.class))
			.isNotInstanceOf(TriageErrorDecoder.class);
		assertThat(catchThrowable(() -> this.custom.get())).isInstanceOf(IllegalStateException.class)
			.hasMessage("own decoder: 500");
		assertThat(wireCount()).isEqualTo(1);
		assertThat(this.observer.calls).singleElement().satisfies((call) -> {
			assertThat(call.outcome().tag()).as("never reported as a success").isEqualTo("failure");
			assertThat(call.failureClass().tag()).as("what the upstream really said, not 'local'").isEqualTo("5xx");
			assertThat(call.code()).isEqualTo("500");
			assertThat(call.attempts()).isEqualTo(1);
		});
		assertThat(this.observer.attempts).singleElement()
			.satisfies((attempt) -> assertThat(attempt.code()).isEqualTo("500"));
	}

	@Test
	void disabledClientIsLeftToPlainFeign() {
		assertThat(this.feignClientFactory.getInstance("billing", ErrorDecoder.class)).isNull();
		assertThat(this.managed.find("billing")).isNull();
		assertThat(catchThrowable(() -> this.billing.invoices())).isInstanceOf(FeignException.class)
			.isNotInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void everyEnabledClientIsKnownAtStartup() {
		assertThat(this.managed.all()).containsOnlyKeys("inventory", "custom");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(RecordingObserverConfiguration.class)
	@EnableFeignClients(clients = { InventoryClient.class, BillingClient.class, CustomDecoderClient.class })
	static class App {

	}

}
