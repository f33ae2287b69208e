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
package dev.triage.boot4;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.triage.UpstreamUnavailableException;
import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.Resilience4jConcurrencyLimit;
import dev.triage.overload.Resilience4jRateLimit;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Resilience4j's Spring Boot 4 module builds its registries anew on a refresh, from its settings of then: a
 * changed {@code resilience4j.*} setting of a breaker, rate limiter or bulkhead Triage uses takes effect, with
 * the state carried over (SPEC §12: an open breaker stays open until its new wait ends; permits taken stay
 * taken), and Triage's breaker defaults stay layered under the application's settings.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.ratelimiter.instances.billing.limit-for-period=100",
				"resilience4j.ratelimiter.instances.billing.limit-refresh-period=1h",
				"resilience4j.ratelimiter.instances.billing.timeout-duration=0",
				"resilience4j.bulkhead.instances.billing.max-concurrent-calls=5",
				"resilience4j.bulkhead.instances.billing.max-wait-duration=0",
				"resilience4j.circuitbreaker.instances.inventory.failure-rate-threshold=60" })
@ExtendWith(OutputCaptureExtension.class)
class RefreshedResilience4jSettingsTests extends LoopbackUpstream {

	private static final String CHANGED = "changed";

	@Autowired
	ManagedClients clients;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Autowired
	RateLimiterRegistry limiters;

	@Autowired
	BulkheadRegistry bulkheads;

	@Autowired
	ContextRefresher refresher;

	@Autowired
	ConfigurableEnvironment environment;

	@BeforeEach
	void answer() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@AfterEach
	void restore() {
		if (this.environment.getPropertySources().remove(CHANGED) != null) {
			this.refresher.refresh();
		}
		breakerInUse().reset();
	}

	@Test
	void anOpenBreakerWhoseSettingsChangedIsReplacedAndStaysOpenOverTriagesDefaults() {
		CircuitBreaker before = breakerInUse();
		before.transitionToOpenState();

		change("resilience4j.circuitbreaker.instances.inventory.wait-duration-in-open-state=7s");

		CircuitBreaker after = breakerInUse();
		assertThat(after).isNotSameAs(before);
		assertThat(after.getState()).as("open stays open").isEqualTo(CircuitBreaker.State.OPEN);
		CircuitBreakerConfig config = after.getCircuitBreakerConfig();
		assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).as("the new wait").isEqualTo(7_000L);
		assertThat(config.getFailureRateThreshold()).as("the application's other setting").isEqualTo(60f);
		assertThat(config.getSlidingWindowType()).as("Triage's default window, still layered underneath")
			.isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
		assertThat(config.getMinimumNumberOfCalls()).isEqualTo(10);
		assertThat(this.breakers.circuitBreaker("inventory")).isSameAs(after);
		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));
		assertThat(thrown).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(wireCount()).as("refused by the new breaker, open as the old one was").isZero();
	}

	@Test
	void aBreakerWhoseSettingsDidNotChangeKeepsItsWindow() {
		CircuitBreaker before = breakerInUse();
		before.onError(1, TimeUnit.MILLISECONDS, new IllegalStateException("failed"));

		change("resilience4j.circuitbreaker.instances.billing.wait-duration-in-open-state=7s");

		assertThat(breakerInUse()).isSameAs(before);
		assertThat(breakerInUse().getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		assertThat(this.breakers.circuitBreaker("inventory")).isSameAs(before);
	}

	@Test
	void aChangedBaseConfigReachesABreakerTheApplicationDoesNotConfigure() {
		change("resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=20");

		CircuitBreakerConfig billing = ((Resilience4jUpstreamBreaker) this.clients.find("billing").channels()
			.primary()
			.breaker()).circuitBreaker().getCircuitBreakerConfig();
		assertThat(billing.getMinimumNumberOfCalls()).as("the application's base config, over Triage's default")
			.isEqualTo(20);
		assertThat(billing.getWaitIntervalFunctionInOpenState().apply(1)).as("Triage's default wait")
			.isEqualTo(5_000L);
		assertThat(this.breakers.circuitBreaker("billing").getCircuitBreakerConfig()).isSameAs(billing);
	}

	@Test
	void aChangedLimitAndBulkheadApplyToTheOnesInUseWithThePermitsTaken() {
		this.billing.invoices();
		this.billing.invoices();
		RateLimiter limiter = limit().limiter();
		Bulkhead bulkhead = bulkhead().bulkhead();

		change("resilience4j.ratelimiter.instances.billing.limit-for-period=50",
				"resilience4j.bulkhead.instances.billing.max-concurrent-calls=2");

		assertThat(limit().limiter()).isSameAs(limiter);
		assertThat(this.limiters.rateLimiter("billing")).isSameAs(limiter);
		assertThat(limiter.getRateLimiterConfig().getLimitForPeriod()).isEqualTo(50);
		assertThat(bulkhead().bulkhead()).isSameAs(bulkhead);
		assertThat(this.bulkheads.bulkhead("billing")).isSameAs(bulkhead);
		assertThat(bulkhead.getBulkheadConfig().getMaxConcurrentCalls()).isEqualTo(2);
		assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
	}

	@Test
	void aChangedRefreshPeriodTakesTheNewRegistrysLimiter() {
		RateLimiter before = limit().limiter();

		change("resilience4j.ratelimiter.instances.billing.limit-refresh-period=2h");

		assertThat(limit().limiter()).isNotSameAs(before).isSameAs(this.limiters.rateLimiter("billing"));
		assertThat(limit().limiter().getRateLimiterConfig().getLimitRefreshPeriod()).isEqualTo(Duration.ofHours(2));
		this.billing.invoices();
		assertThat(this.limiters.rateLimiter("billing").getMetrics().getAvailablePermissions()).isEqualTo(99);
	}

	/**
	 * A limiter and a bulkhead whose settings are removed while running are no limit (SPEC §8.4, §8.5: "no instance
	 * configured: no limiter"): Resilience4j's defaults (a bulkhead of 25, a limiter of 50) took their place, and a
	 * bulkhead removed during an incident refused more calls than before. Put back, they apply again.
	 */
	@Test
	void aLimiterAndABulkheadRemovedWhileRunningAreNoLimitUntilTheyComeBack() {
		MutablePropertySources sources = this.environment.getPropertySources();
		String inlined = "Inlined Test Properties";
		MapPropertySource original = (MapPropertySource) sources.get(inlined);
		Map<String, Object> without = new LinkedHashMap<>(original.getSource());
		without.keySet().removeIf((key) -> key.startsWith("resilience4j.ratelimiter.") || key.startsWith("resilience4j.bulkhead."));
		try {
			sources.replace(inlined, new MapPropertySource(inlined, without));
			this.refresher.refresh();

			assertThat(limit().limiter()).isNull();
			assertThat(limit().name()).as("the endpoint shows no limiter").isNull();
			assertThat(bulkhead().bulkhead()).isNull();
			assertThat(this.limiters.find("billing")).as("no default limiter in its place").isEmpty();
			assertThat(this.bulkheads.find("billing")).as("no default bulkhead in its place").isEmpty();
			assertThat(this.billing.invoices()).isEqualTo("ok");
		}
		finally {
			sources.replace(inlined, original);
			this.refresher.refresh();
		}
		assertThat(limit().limiter().getRateLimiterConfig().getLimitForPeriod()).isEqualTo(100);
		assertThat(bulkhead().bulkhead().getBulkheadConfig().getMaxConcurrentCalls()).isEqualTo(5);
		assertThat(this.bulkheads.bulkhead("billing")).isSameAs(bulkhead().bulkhead());
	}

	@Test
	void aLimiterAddedWhileRunningIsSaidToTakeEffectAtTheNextStart(CapturedOutput output) {
		change("resilience4j.ratelimiter.instances.inventory.limit-for-period=1");

		assertThat(output).contains("A rate limiter for client 'inventory' (resilience4j.ratelimiter.instances."
				+ "inventory) was added while the application runs: Triage takes it at the next start");
	}

	private void change(String... properties) {
		TestPropertyValues.of(properties).applyTo(this.environment, TestPropertyValues.Type.MAP, CHANGED);
		this.refresher.refresh();
	}

	private CircuitBreaker breakerInUse() {
		return ((Resilience4jUpstreamBreaker) this.clients.find("inventory").channels().primary().breaker())
			.circuitBreaker();
	}

	private Resilience4jRateLimit limit() {
		return (Resilience4jRateLimit) this.clients.find("billing").overload().rateLimit();
	}

	private Resilience4jConcurrencyLimit bulkhead() {
		return (Resilience4jConcurrencyLimit) this.clients.find("billing").overload().concurrencyLimit();
	}

}
