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

package dev.triage.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamUnavailableException;
import dev.triage.autoconfigure.TriageAutoConfiguration;
import dev.triage.engine.ManagedClients;
import dev.triage.support.BillingClient;
import dev.triage.support.BootLine;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.web.client.RestClient;

/**
 * How the breaker of a Triage client is configured, one source per test: Triage's defaults, then
 * {@code configs.default}, then the instance's own fields, field by field (the shape of Resilience4j's own
 * {@code CircuitBreakerAutoConfigurationCustomizerTest}).
 */
class BreakerLayeringTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootLine.resilience4jCircuitBreakerAutoConfiguration(), TriageAutoConfiguration.class,
				FeignAutoConfiguration.class))
		.withBean("inventorySpec", FeignClientSpecification.class,
				() -> new FeignClientSpecification("inventory", null, new Class<?>[0]));

	private CircuitBreakerConfig inventory(org.springframework.context.ApplicationContext context) {
		context.getBean(ManagedClients.class);
		return context.getBean(CircuitBreakerRegistry.class).circuitBreaker("inventory").getCircuitBreakerConfig();
	}

	@Test
	void nothingConfiguredGivesTriagesDefaults() {
		this.contextRunner.run((context) -> {
			CircuitBreakerConfig config = inventory(context);
			assertThat(config.getSlidingWindowType()).isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
			assertThat(config.getSlidingWindowSize()).isEqualTo(10);
			assertThat(config.getMinimumNumberOfCalls()).isEqualTo(10);
			assertThat(config.getFailureRateThreshold()).isEqualTo(50);
			assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).isEqualTo(5_000);
			assertThat(config.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
		});
	}

	@Test
	void anInstanceFieldChangesThatFieldOnly() {
		this.contextRunner.withPropertyValues("resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=2")
			.run((context) -> {
				CircuitBreakerConfig config = inventory(context);
				assertThat(config.getMinimumNumberOfCalls()).as("instance").isEqualTo(2);
				assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).as("Triage, not Resilience4j's 60s")
					.isEqualTo(5_000);
			});
	}

	@Test
	void configsDefaultSitsBetweenTriageAndTheInstance() {
		this.contextRunner
			.withPropertyValues("resilience4j.circuitbreaker.configs.default.wait-duration-in-open-state=20s",
					"resilience4j.circuitbreaker.configs.default.failure-rate-threshold=30",
					"resilience4j.circuitbreaker.instances.inventory.failure-rate-threshold=70")
			.run((context) -> {
				CircuitBreakerConfig config = inventory(context);
				assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).as("configs.default").isEqualTo(20_000);
				assertThat(config.getFailureRateThreshold()).as("instance over configs.default").isEqualTo(70);
				assertThat(config.getMinimumNumberOfCalls()).as("Triage").isEqualTo(10);
			});
	}

	@Test
	void registeringTheHealthIndicatorAloneKeepsTheOtherDefaults() {
		this.contextRunner
			.withPropertyValues("resilience4j.circuitbreaker.configs.default.register-health-indicator=true")
			.run((context) -> assertThat(inventory(context).getMinimumNumberOfCalls()).as("not Resilience4j's 100")
				.isEqualTo(10));
	}

	@Test
	void aChannelsBreakerGetsTheDefaultsToo() {
		this.contextRunner
			.withPropertyValues("triage.clients.inventory.channels.backup=http://127.0.0.1:9",
					"resilience4j.circuitbreaker.instances.inventory-backup.sliding-window-size=40")
			.run((context) -> {
				context.getBean(ManagedClients.class);
				CircuitBreakerConfig config = context.getBean(CircuitBreakerRegistry.class)
					.circuitBreaker("inventory-backup")
					.getCircuitBreakerConfig();
				assertThat(config.getSlidingWindowSize()).isEqualTo(40);
				assertThat(Duration.ofMillis(config.getWaitIntervalFunctionInOpenState().apply(1)))
					.isEqualTo(Duration.ofSeconds(5));
			});
	}


	@Test
	void theBreakerOfAnHttpServiceClientMadeAfterStartupIsLayeredTooAndIsTheOneItUses() {
		this.contextRunner.withPropertyValues("resilience4j.circuitbreaker.instances.latesvc.minimum-number-of-calls=7")
			.run((context) -> {
				BillingClient client = context.getBean(TriageHttpServices.class)
					.createClient("latesvc", BillingClient.class, RestClient.builder().baseUrl("http://127.0.0.1:9").build());
				CircuitBreakerRegistry registry = context.getBean(CircuitBreakerRegistry.class);
				CircuitBreakerConfig config = registry.circuitBreaker("latesvc").getCircuitBreakerConfig();
				assertThat(config.getMinimumNumberOfCalls()).as("instance").isEqualTo(7);
				assertThat(config.getSlidingWindowType()).as("Triage, not Resilience4j's COUNT_BASED")
					.isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
				assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).as("Triage, not Resilience4j's 60s")
					.isEqualTo(5_000);
				assertThat(config.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);

				registry.circuitBreaker("latesvc").transitionToForcedOpenState();
				assertThat(catchThrowable(client::invoices)).as("the registry's breaker is the client's")
					.isInstanceOf(UpstreamUnavailableException.class);
			});
	}

}
