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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.CallRecord;
import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.engine.ManagedClients;
import dev.triage.policy.InvalidPolicyException;
import dev.triage.reload.ConfigHistory;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.WireMocks;
import dev.triage.support.WithoutProtection;
import feign.codec.ErrorDecoder;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * SPEC §3 and §6: a Feign client is keyed by its {@code @FeignClient} name, its upstream. Two interfaces declared
 * for one upstream, each with its own {@code contextId}, share {@code triage.clients.<name>}, one breaker and the
 * meters' {@code client} tag; each keeps its own fallback. {@code triage.clients.<contextId>} is refused.
 */
@WithoutProtection
@SpringBootTest(classes = SharedClientNameTests.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.stock.policies.503.max-attempts=2",
				"resilience4j.circuitbreaker.instances.stock.minimum-number-of-calls=1000",
				"management.endpoints.web.exposure.include=triage" })
class SharedClientNameTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.stock", upstream::baseUrl);
	}

	@Autowired
	StockReads reads;

	@Autowired
	StockAdmin admin;

	@Autowired
	CachedStock fallback;

	@Autowired
	RecordingObserver observer;

	@Autowired
	CircuitBreakerRegistry registry;

	@Autowired
	ManagedClients clients;

	@Autowired
	TriageEndpoint endpoint;

	@Autowired
	ConfigHistory history;

	@Autowired
	ConfigurableApplicationContext context;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		this.fallback.received.clear();
		this.observer.clear();
		this.registry.circuitBreaker("stock").reset();
	}

	@AfterEach
	void closeBreaker() {
		this.registry.circuitBreaker("stock").reset();
	}

	@Test
	void everyInterfaceOfTheNameCallsUnderItsTableAndIsReportedUnderIt() {
		assertThat(this.reads.item("1")).as("StockReads' own fallback answers").isEqualTo("cached-1");
		assertThat(upstream.getAllServeEvents()).as("triage.clients.stock: 503 tried twice").hasSize(2);
		OriginalResponse response = this.fallback.received.get(0).response();
		assertThat(response.client()).isEqualTo("stock");
		assertThat(response.attempts()).isEqualTo(2);

		upstream.resetRequests();
		UpstreamResponseException failure = catchThrowableOfType(UpstreamResponseException.class,
				() -> this.admin.audit("2"));
		assertThat(failure).as("StockAdmin has no fallback: StockReads' is not its").isNotNull();
		assertThat(failure.client()).isEqualTo("stock");
		assertThat(failure.attempts()).isEqualTo(2);
		assertThat(upstream.getAllServeEvents()).hasSize(2);
		assertThat(this.fallback.received).hasSize(1);

		assertThat(this.observer.calls).extracting(CallRecord::client).containsExactly("stock", "stock");
		assertThat(this.observer.calls).extracting(CallRecord::methodKey)
			.containsExactly("StockReads#item(String)", "StockAdmin#audit(String)");
	}

	@Test
	void oneBreakerForTheUpstreamRefusesEveryInterfaceOfIt() {
		this.registry.circuitBreaker("stock").transitionToForcedOpenState();

		assertThat(this.reads.item("3")).isEqualTo("cached-3");
		assertThat(this.fallback.received.get(0).exception()).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(catchThrowable(() -> this.admin.audit("4"))).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(upstream.getAllServeEvents()).as("nothing reached the wire").isEmpty();
		assertThat(this.registry.getAllCircuitBreakers()).extracting(CircuitBreaker::getName)
			.doesNotContain("stockReads", "stockAdmin");
	}

	@Test
	void theBreakerOfTheNameGetsTriagesDefaultsUnderWhatIsConfigured() {
		CircuitBreakerConfig config = this.registry.circuitBreaker("stock").getCircuitBreakerConfig();

		assertThat(config.getMinimumNumberOfCalls()).as("configured").isEqualTo(1000);
		assertThat(config.getSlidingWindowType()).as("Triage's default")
			.isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
		assertThat(Duration.ofMillis(config.getWaitIntervalFunctionInOpenState().apply(1))).as("Triage's default")
			.isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void theEndpointListsTheNameOnceWithItsFallback() {
		assertThat(this.clients.all()).containsOnlyKeys("stock");
		assertThat(this.endpoint.clients().clients()).containsOnlyKeys("stock");
		assertThat(this.endpoint.clients().clients().get("stock").fallback()).isTrue();
		assertThat(this.endpoint.client("stock").channels().get(0).baseUrl()).isEqualTo(upstream.baseUrl());
	}

	@Test
	void aContextIdUnderTriageClientsIsRefusedWhileRunningAsAtStartup() {
		long version = this.history.status().version();
		String key = "triage.clients.stockAdmin.policies.503.max-attempts";
		this.context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("operator", Map.of(key, "1")));
		try {
			this.context.publishEvent(new EnvironmentChangeEvent(this.context, java.util.Set.of(key)));

			assertThat(this.history.status().version()).isEqualTo(version);
			assertThat(this.history.status().lastRejected().reason()).contains("triage.clients.stockAdmin")
				.contains("triage.clients.stock");
		}
		finally {
			this.context.getEnvironment().getPropertySources().remove("operator");
			this.context.publishEvent(new EnvironmentChangeEvent(this.context, java.util.Set.of(key)));
		}
		catchThrowable(() -> this.admin.audit("5"));
		assertThat(upstream.getAllServeEvents()).as("the table in force: 503 tried twice").hasSize(2);
	}

	@Test
	void aContextIdUnderTriageClientsFailsStartupNamingThePropertyAndTheName() {
		Throwable failure = catchThrowable(() -> start("triage.clients.stockAdmin.deadline=2s").close());

		Throwable cause = NestedExceptionUtils.getRootCause(failure);
		assertThat(cause).isInstanceOf(InvalidPolicyException.class);
		assertThat(((InvalidPolicyException) cause).getProperty()).isEqualTo("triage.clients.stockAdmin");
		assertThat(cause.getMessage()).contains("the @FeignClient name 'stock'").contains("write triage.clients.stock");
	}

	@Test
	void switchingTheNameOffLeavesEveryInterfaceOfItAlone() {
		try (ConfigurableApplicationContext off = start("triage.clients.stock.enabled=false")) {
			FeignClientFactory factory = off.getBean(FeignClientFactory.class);
			assertThat(factory.getInstance("stockReads", ErrorDecoder.class)).isNull();
			assertThat(factory.getInstance("stockAdmin", ErrorDecoder.class)).isNull();
			assertThat(off.getBean(ManagedClients.class).all()).isEmpty();
		}
		assertThat(this.context.getBean(FeignClientFactory.class).getInstance("stockAdmin", ErrorDecoder.class))
			.isInstanceOf(TriageErrorDecoder.class);
	}

	private static ConfigurableApplicationContext start(String property) {
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties("test.upstream.stock=" + upstream.baseUrl(), "spring.main.banner-mode=off", property)
			.run();
	}

	@FeignClient(name = "stock", contextId = "stockReads", url = "${test.upstream.stock}")
	public interface StockReads {

		@GetMapping("/items/{id}")
		String item(@PathVariable("id") String id);

	}

	@FeignClient(name = "stock", contextId = "stockAdmin", url = "${test.upstream.stock}")
	public interface StockAdmin {

		@GetMapping("/admin/items/{id}")
		String audit(@PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { StockReads.class, StockAdmin.class })
	@Import(RecordingObserverConfiguration.class)
	static class App {

		@Bean
		CachedStock cachedStock() {
			return new CachedStock();
		}

	}

	record Received(Throwable exception, OriginalResponse response) {
	}

	static class CachedStock implements TriageFallback<StockReads> {

		final List<Received> received = new CopyOnWriteArrayList<>();

		@Override
		public StockReads create(Throwable exception, OriginalResponse response) {
			this.received.add(new Received(exception, response));
			return (id) -> "cached-" + id;
		}

	}

}
