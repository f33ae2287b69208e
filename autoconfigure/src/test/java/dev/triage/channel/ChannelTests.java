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

package dev.triage.channel;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.triage.OriginalResponse;
import dev.triage.Refusal;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Seed 001: "重试解决抖动，切换解决故障". Inventory's own URL is the primary (the shared loopback upstream); a second
 * loopback server, under the base path {@code /v2}, is its channel {@code backup}. Both count what reaches them.
 */
@SpringBootTest(classes = { TestApplication.class, ChannelTests.Fallbacks.class },
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "triage.clients.inventory.deadline=3s",
				"resilience4j.circuitbreaker.instances.inventory-backup.minimum-number-of-calls=7",
				"resilience4j.circuitbreaker.instances.inventory-backup.sliding-window-size=50" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@ExtendWith(OutputCaptureExtension.class)
class ChannelTests extends LoopbackUpstream {

	@RegisterExtension
	static WireMockExtension backup = WireMocks.loopback();

	@DynamicPropertySource
	static void channels(DynamicPropertyRegistry registry) {
		registry.add("triage.clients.inventory.channels.backup", () -> backup.baseUrl() + "/v2");
	}

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		backup.resetAll();
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("from backup")));
	}

	@Test
	void a503MovesTheNextAttemptAtOnceToTheBackupUnderItsBasePath(CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "5")));

		long start = System.nanoTime();
		String answer = this.inventory.item("1");
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(answer).isEqualTo("from backup");
		assertThat(wireCount()).isEqualTo(1);
		assertThat(backupCount()).isEqualTo(1);
		backup.verify(getRequestedFor(urlPathEqualTo("/v2/items/1")));
		assertThat(took).as("no backoff, no Retry-After wait before the other channel").isLessThan(Duration.ofSeconds(2));
		assertThat(this.meters.get("triage.attempts").tag("client", "inventory").tag("channel", "backup").counter()
			.count()).isEqualTo(1);
		assertThat(this.meters.get("triage.attempts").tag("client", "inventory").tag("channel", "primary")
			.tag("code", "503").counter().count()).isEqualTo(1);
	}

	@Test
	void a599FailsOverWhileA404A400AndA429StayOnThePrimary() {
		upstream.stubFor(any(urlPathEqualTo("/items/gone")).willReturn(aResponse().withStatus(599)));
		assertThat(this.inventory.item("gone")).isEqualTo("from backup");
		assertThat(backupCount()).isEqualTo(1);

		for (int status : new int[] { 404, 400, 429 }) {
			upstream.resetAll();
			backup.resetRequests();
			upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(status).withHeader("Retry-After", "0")));

			Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

			assertThat(thrown).as("status " + status).isInstanceOf(UpstreamResponseException.class);
			assertThat(((UpstreamResponseException) thrown).response().channel()).isEqualTo("primary");
			assertThat(backupCount()).as("status " + status).isZero();
			assertThat(wireCount()).as("status " + status).isEqualTo((status == 429) ? 3 : 1);
		}
	}

	@Test
	void aPostFollowsItsRulesIdempotency() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));

		Throwable thrown = catchThrowable(() -> this.inventory.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).isEqualTo(1);
		assertThat(backupCount()).as("a POST answered 503 is tried once, on no channel").isZero();

		assertThat(this.inventory.order("{}", "key-1")).as("with an Idempotency-Key it fails over")
			.isEqualTo("from backup");
		assertThat(backupCount()).isEqualTo(1);
	}

	@Test
	void aBackupThatFailsTooEndsTheCallWithWhatItSaid() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(502).withHeader("Retry-After", "0")));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		OriginalResponse response = ((UpstreamResponseException) thrown).response();
		assertThat(response.status()).isEqualTo(502);
		assertThat(response.channel()).isEqualTo("backup");
		assertThat(wireCount() + backupCount()).as("max-attempts of the 502 row").isEqualTo(3);
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void aBackupThatFailsOnTheWireIsTheRequestTheFailureNames() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(thrown.getMessage()).as("the attempt that failed so went to the backup")
			.contains("[GET " + backup.baseUrl() + "/v2/items/1]");
	}

	@Test
	void eachChannelHasItsOwnBreakerNamedAndConfiguredTheResilience4jWay() {
		CircuitBreaker own = this.breakers.circuitBreaker("inventory-backup");

		assertThat(own.getCircuitBreakerConfig().getMinimumNumberOfCalls()).isEqualTo(7);
		assertThat(this.breakers.circuitBreaker("inventory")).isNotSameAs(own);
	}

	@Test
	void withThePrimaryBreakerOpenCallsGoStraightToTheBackupAndComeBackWhenItHalfOpens(CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("from primary")));
		CircuitBreaker primary = this.breakers.circuitBreaker("inventory");
		primary.transitionToOpenState();

		assertThat(this.inventory.item("1")).isEqualTo("from backup");
		assertThat(this.inventory.item("2")).isEqualTo("from backup");
		assertThat(wireCount()).isZero();
		assertThat(backupCount()).isEqualTo(2);

		primary.transitionToHalfOpenState();
		assertThat(this.inventory.item("3")).as("fail-back through the half-open probe").isEqualTo("from primary");
		assertThat(wireCount()).isEqualTo(1);
	}

	@Test
	void withEveryChannelOpenTheRefusalIsThePrimarysAndTheFallbackGetsIt() {
		this.breakers.circuitBreaker("inventory").transitionToOpenState();
		this.breakers.circuitBreaker("inventory-backup").transitionToOpenState();

		assertThat(this.inventory.item("1")).isEqualTo("fallback BREAKER_OPEN");
		assertThat(wireCount() + backupCount()).isZero();
	}

	@Test
	void aPausedPrimaryIsSkippedForTheBackup() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		// The 3s deadline leaves no room for a 30s wait: one attempt, and the primary is paused for 30s.
		catchThrowable(() -> this.inventory.search("q", "Bearer x"));
		upstream.resetRequests();

		assertThat(this.inventory.item("1")).isEqualTo("from backup");
		assertThat(wireCount()).isZero();
	}

	private static long backupCount() {
		return backup.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Fallbacks {

		/** Answers refusals only; real answers are rethrown, so the other tests see them. */
		@Bean
		TriageFallback<InventoryClient> refusalFallback() {
			return (exception, response) -> {
				if (response != null) {
					throw new UpstreamResponseException(response);
				}
				if (!(exception instanceof UpstreamUnavailableException refused)) {
					throw (RuntimeException) exception;
				}
				Refusal refusal = refused.refusal();
				return (InventoryClient) java.lang.reflect.Proxy.newProxyInstance(InventoryClient.class.getClassLoader(),
						new Class<?>[] { InventoryClient.class }, (proxy, method, args) -> "fallback " + refusal);
			};
		}

	}

}
