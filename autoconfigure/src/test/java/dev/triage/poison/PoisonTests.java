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

package dev.triage.poison;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.engine.ManagedClients;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Seed 001: "同一个请求重试三次都是 500，就不再是上游抖动了，把它扔进死信队列". Over real HTTP: a request that keeps
 * failing with 500 while other requests to the same upstream succeed is published once and refused; during an
 * outage nothing is. Retry-After: 0 keeps the 500 row's retries fast; the breaker is held closed.
 */
@SpringBootTest(classes = { TestApplication.class, PoisonTests.DeadLetter.class },
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "triage.clients.inventory.poison.ttl=2s", "triage.clients.billing.poison.enabled=false",
				"triage.throttle.enabled=false",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@ExtendWith(OutputCaptureExtension.class)
class PoisonTests extends LoopbackUpstream {

	@Autowired
	DeadLetter deadLetter;

	@Autowired
	ManagedClients clients;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathMatching("/items/ok.*")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/items/bad"))
			.willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0").withBody("{\"error\":{\"type\":\"bug\"}}")));
		upstream.stubFor(get(urlPathMatching("/invoices/ok.*")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/invoices/bad"))
			.willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")));
	}

	@Test
	void threeFiveHundredsWhileOthersSucceedDeadLetterTheRequestAndRefuseItAfterwards(CapturedOutput output) {
		assertThat(this.inventory.item("ok-1")).isEqualTo("ok");
		upstream.resetRequests();

		Throwable first = catchThrowable(() -> this.inventory.item("bad"));

		assertThat(first).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) first).attempts()).isEqualTo(3);
		assertThat(wireCount()).isEqualTo(3);
		assertThat(this.deadLetter.events).singleElement().satisfies((event) -> {
			assertThat(event.client()).isEqualTo("inventory");
			assertThat(event.methodKey()).isEqualTo("InventoryClient#item(String)");
			assertThat(event.httpMethod()).isEqualTo("GET");
			assertThat(event.url()).endsWith("/items/bad");
			assertThat(event.fingerprint()).hasSize(64);
			assertThat(event.body()).isEmpty();
			assertThat(event.lastResponse().status()).isEqualTo(500);
			assertThat(event.lastResponse().errorType()).isEqualTo("bug");
			assertThat(event.failures()).isEqualTo(3);
			assertThat(event.at()).isNotNull();
		});
		assertThat(output).contains("triage poison client=inventory");

		upstream.resetRequests();
		Throwable refused = catchThrowable(() -> this.inventory.item("bad"));
		assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) refused).refusal()).isEqualTo(Refusal.POISON);
		assertThat(wireCount()).isZero();
		assertThat(this.inventory.item("ok-2")).as("other requests are unaffected").isEqualTo("ok");
		assertThat(this.deadLetter.events).hasSize(1);
		assertThat(this.clients.get("inventory").poison().current()).singleElement()
			.satisfies((entry) -> assertThat(entry.fingerprint()).isEqualTo(this.deadLetter.events.get(0).fingerprint()));
		assertThat(this.meters.get("triage.poison").tag("client", "inventory").counter().count()).isEqualTo(1);
	}

	@Test
	void fingerprintsAreKeyedPerApplicationNotPerJvm() {
		// SPEC §10: "keyed with a secret of the running application". Its clients share it; another application,
		// started in the same JVM, has its own.
		String url = upstream.baseUrl() + "/items/bad";
		String here = this.clients.get("inventory").poison().fingerprint("GET", url, null);
		assertThat(this.clients.get("billing").poison().fingerprint("GET", url, null)).isEqualTo(here);
		try (ConfigurableApplicationContext other = new SpringApplicationBuilder(TestApplication.class)
			.web(WebApplicationType.NONE)
			.properties("test.upstream.inventory=" + upstream.baseUrl(), "test.upstream.billing=" + upstream.baseUrl())
			.run()) {
			String there = other.getBean(ManagedClients.class).get("inventory").poison().fingerprint("GET", url, null);
			assertThat(there).hasSize(64).isNotEqualTo(here);
		}
	}

	@Test
	void duringAnOutageRepeatedFiveHundredsPoisonNothing() {
		for (int i = 0; i < 4; i++) {
			assertThat(catchThrowable(() -> this.inventory.item("bad"))).isInstanceOf(UpstreamResponseException.class);
		}
		assertThat(wireCount()).as("four calls of four attempts each").isEqualTo(16);
		assertThat(this.deadLetter.events).isEmpty();
	}

	@Test
	void aTwoHundredWhoseBodyCarriesAnErrorEventOrBreaksOffIsNoSignThatTheUpstreamAnswers() {
		// SPEC §10: "During an outage (nothing else succeeds) nothing becomes poison"; a 2xx is a success only once
		// its body has arrived (SPEC §4.1), so an outage answered with error events or bodies cut short is one.
		upstream.stubFor(get(urlPathEqualTo("/items/stream-error")).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "text/event-stream")
			.withBody("data: {\"error\":{\"type\":\"overloaded\"}}\n\n")));
		upstream.stubFor(get(urlPathEqualTo("/items/cut")).willReturn(aResponse().withStatus(200)
			.withFault(com.github.tomakehurst.wiremock.http.Fault.MALFORMED_RESPONSE_CHUNK)));
		assertThat(catchThrowable(() -> this.inventory.item("stream-error"))).isInstanceOf(UpstreamResponseException.class);
		assertThat(catchThrowable(() -> this.inventory.item("cut"))).isNotNull();
		upstream.resetRequests();

		assertThat(catchThrowable(() -> this.inventory.item("bad"))).isInstanceOf(UpstreamResponseException.class);

		assertThat(wireCount()).as("the 500 row's four attempts, not cut short as poison").isEqualTo(4);
		assertThat(this.deadLetter.events).isEmpty();
	}

	@Test
	void postBodiesAreFingerprintedApart() {
		upstream.stubFor(post(urlPathEqualTo("/orders")).withRequestBody(equalTo("{\"sku\":\"bad\"}"))
			.willReturn(aResponse().withStatus(500)));
		upstream.stubFor(post(urlPathEqualTo("/orders")).withRequestBody(equalTo("{\"sku\":\"good\"}"))
			.willReturn(aResponse().withStatus(500)));
		this.inventory.item("ok-1");
		for (int i = 0; i < 3; i++) {
			catchThrowable(() -> this.inventory.order("{\"sku\":\"bad\"}"));
		}
		assertThat(this.deadLetter.events).singleElement()
			.satisfies((event) -> assertThat(new String(event.body(), StandardCharsets.UTF_8)).isEqualTo("{\"sku\":\"bad\"}"));
		upstream.resetRequests();

		Throwable good = catchThrowable(() -> this.inventory.order("{\"sku\":\"good\"}"));

		assertThat(good).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void aSuccessForTheRequestStartsItsCountOver() {
		upstream.stubFor(get(urlPathEqualTo("/items/flaky")).inScenario("flaky").whenScenarioStateIs("Started")
			.willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")).willSetStateTo("second"));
		upstream.stubFor(get(urlPathEqualTo("/items/flaky")).inScenario("flaky").whenScenarioStateIs("second")
			.willReturn(aResponse().withStatus(500).withHeader("Retry-After", "0")).willSetStateTo("ok"));
		upstream.stubFor(get(urlPathEqualTo("/items/flaky")).inScenario("flaky").whenScenarioStateIs("ok")
			.willReturn(aResponse().withStatus(200).withBody("recovered")).willSetStateTo("Started"));
		this.inventory.item("ok-1");

		for (int i = 0; i < 3; i++) {
			assertThat(this.inventory.item("flaky")).isEqualTo("recovered");
		}

		assertThat(this.deadLetter.events).isEmpty();
		assertThat(wireCount()).isEqualTo(1 + 9);
	}

	@Test
	void aPoisonRequestGoesThroughAgainAfterTheTtl() throws Exception {
		this.inventory.item("ok-1");
		catchThrowable(() -> this.inventory.item("bad"));
		assertThat(((UpstreamUnavailableException) catchThrowable(() -> this.inventory.item("bad"))).refusal())
			.isEqualTo(Refusal.POISON);

		Thread.sleep(2_200);
		upstream.resetRequests();
		assertThat(catchThrowable(() -> this.inventory.item("bad"))).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isPositive();
	}

	@Test
	void withPoisonDetectionOffNothingIsPublishedOrRefused() {
		this.billing.invoice("ok-1");
		for (int i = 0; i < 3; i++) {
			assertThat(catchThrowable(() -> this.billing.invoice("bad"))).isInstanceOf(UpstreamResponseException.class);
		}
		assertThat(wireCount()).as("three calls of four attempts each").isEqualTo(1 + 12);
		assertThat(this.deadLetter.events).isEmpty();
	}

	@Test
	void fiftyThreadsSendingTheSamePoisonRequestProduceExactlyOneEvent() throws Exception {
		this.inventory.item("ok-1");
		ExecutorService pool = Executors.newFixedThreadPool(50);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<Throwable>> results = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				results.add(pool.submit(() -> {
					start.await();
					return catchThrowable(() -> this.inventory.item("bad"));
				}));
			}
			start.countDown();
			for (Future<Throwable> result : results) {
				assertThat(result.get(30, TimeUnit.SECONDS)).isInstanceOfAny(UpstreamResponseException.class,
						UpstreamUnavailableException.class);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(this.deadLetter.events).hasSize(1);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class DeadLetter {

		final List<PoisonRequestEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void store(PoisonRequestEvent event) {
			this.events.add(event);
		}

	}

}
