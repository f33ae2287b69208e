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
package dev.triage.reload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.TimeUnit;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamUnavailableException;
import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.Resilience4jConcurrencyLimit;
import dev.triage.overload.Resilience4jRateLimit;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.web.client.RestClient;

/**
 * A refresh of Spring Cloud Context ({@code /actuator/refresh}) with Resilience4j's registries refresh-scoped, as
 * its Spring Boot 4 module declares them: the registries are built anew, and the breakers, rate limiters and
 * bulkheads Triage decides with are the ones the registries (their meters, health and endpoints) show, in the
 * state they are in. A channel removed before the refresh does not come back with the new registry.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.ratelimiter.instances.billing.limit-for-period=100",
				"resilience4j.ratelimiter.instances.billing.limit-refresh-period=1h",
				"resilience4j.ratelimiter.instances.billing.timeout-duration=0",
				"resilience4j.bulkhead.instances.billing.max-concurrent-calls=5",
				"resilience4j.bulkhead.instances.billing.max-wait-duration=0",
				"resilience4j.circuitbreaker.instances.catalog.failure-rate-threshold=70",
				"triage.policies.503.backoff.initial=1ms", "triage.policies.503.backoff.max=1ms" })
class RefreshedRegistriesTests extends LoopbackUpstream {

	@Autowired
	ManagedClients clients;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	RateLimiterRegistry limiters;

	@Autowired
	BulkheadRegistry bulkheads;

	@Autowired
	MeterRegistry meters;

	@Autowired
	ContextRefresher refresher;

	@Autowired
	ConfigurableEnvironment environment;

	@Autowired
	TriageHttpServices triage;

	@BeforeEach
	void answer() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@AfterEach
	void closeTheBreaker() {
		breakerInUse("inventory").reset();
	}

	@Test
	void anOpenBreakerIsTheRegistrysAfterARefreshAndKeepsRefusing() {
		CircuitBreaker inUse = breakerInUse("inventory");
		inUse.transitionToOpenState();

		this.refresher.refresh();

		assertThat(breakerInUse("inventory")).isSameAs(inUse);
		assertThat(this.breakers.circuitBreaker("inventory")).as("the registry's breaker is the one in use")
			.isSameAs(inUse);
		assertThat(this.meters.get("resilience4j.circuitbreaker.state").tag("name", "inventory").tag("state", "open")
			.gauge().value()).as("Resilience4j's state gauge").isEqualTo(1.0);
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
		assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(wireCount()).as("refused by the breaker that stayed open").isZero();
	}

	@Test
	void theRateLimiterAndBulkheadInUseAreTheRegistrysAfterARefreshWithThePermitsTaken() {
		this.billing.invoices();
		this.billing.invoices();

		this.refresher.refresh();

		Resilience4jRateLimit limit = (Resilience4jRateLimit) this.clients.find("billing").overload().rateLimit();
		assertThat(this.limiters.rateLimiter("billing")).isSameAs(limit.limiter());
		assertThat(this.limiters.rateLimiter("billing").getMetrics().getAvailablePermissions())
			.as("the permits taken before the refresh stay taken").isEqualTo(98);
		Resilience4jConcurrencyLimit bulkhead = (Resilience4jConcurrencyLimit) this.clients.find("billing")
			.overload()
			.concurrencyLimit();
		assertThat(this.bulkheads.bulkhead("billing")).isSameAs(bulkhead.bulkhead());
		this.billing.invoices();
		assertThat(this.limiters.rateLimiter("billing").getMetrics().getAvailablePermissions()).isEqualTo(97);
		assertThat(wireCount()).isEqualTo(3);
	}

	@Test
	void aChannelRemovedBeforeARefreshDoesNotComeBackWithTheNewRegistry() {
		String key = "triage.clients.inventory.channels.backup";
		TestPropertyValues.of(key + "=" + upstream.baseUrl()).applyTo(this.environment, TestPropertyValues.Type.MAP,
				"channel");
		this.refresher.refresh();
		assertThat(this.breakers.find("inventory-backup")).as("the channel's breaker").isPresent();

		this.environment.getPropertySources().remove("channel");
		this.refresher.refresh();

		assertThat(this.clients.find("inventory").channels().all()).hasSize(1);
		assertThat(this.breakers.find("inventory-backup")).as("the removed channel's breaker").isEmpty();
		assertThat(this.breakers.find("inventory")).isPresent();
	}

	@Test
	void theBreakerOfAClientMadeAfterStartupKeepsItsStateAndTriagesLayeringAcrossARefresh() {
		InventoryClient catalog = this.triage.createClient("catalog", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).build());
		assertThat(catalog.item("1")).isEqualTo("ok");
		CircuitBreaker inUse = breakerInUse("catalog");
		inUse.onError(1, TimeUnit.MILLISECONDS, new IllegalStateException("failed"));

		this.refresher.refresh();

		assertThat(breakerInUse("catalog")).isSameAs(inUse);
		assertThat(this.breakers.circuitBreaker("catalog")).isSameAs(inUse);
		assertThat(inUse.getMetrics().getNumberOfFailedCalls()).as("its window").isEqualTo(1);
		CircuitBreakerConfig config = inUse.getCircuitBreakerConfig();
		assertThat(config.getFailureRateThreshold()).as("the application's setting").isEqualTo(70f);
		assertThat(config.getSlidingWindowType()).as("Triage's default window under it")
			.isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
		assertThat(config.getMinimumNumberOfCalls()).isEqualTo(10);
	}

	private CircuitBreaker breakerInUse(String client) {
		return ((Resilience4jUpstreamBreaker) this.clients.find(client).channels().primary().breaker())
			.circuitBreaker();
	}

}
