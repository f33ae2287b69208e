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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TriageFallback;
import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.support.RawServer;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.support.WireMocks;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * Spring Framework 7's HTTP service groups on Spring Boot 4: every RestClient group is managed by default as the
 * client named after its group, with its base URL ({@code spring.http.serviceclient.<group>.base-url}) as the
 * primary channel; a second retry layer ({@code @Retryable}) on a managed group fails startup.
 */
@ExtendWith(OutputCaptureExtension.class)
class HttpServiceGroupTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@Test
	void aGroupIsManagedAsTheClientNamedAfterIt() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		try (ConfigurableApplicationContext context = run(GroupApplication.class)) {
			CatalogApi catalog = context.getBean(CatalogApi.class);

			Throwable thrown = catchThrowable(() -> catalog.item("1"));

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			assertThat(((UpstreamResponseException) thrown).client()).isEqualTo("catalog");
			assertThat(((UpstreamResponseException) thrown).methodKey()).isEqualTo("CatalogApi#item(String)");
			assertThat(wireCount()).as("the 503 row: 3 attempts").isEqualTo(3);
			assertThat(context.getBean(CircuitBreakerRegistry.class).find("catalog")).isPresent();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			for (String gauge : new String[] { "triage.throttle.drop.probability", "triage.retry.budget.remaining",
					"triage.paused" }) {
				assertThat(meters.find(gauge).tag("client", "catalog").gauges()).as(gauge).hasSize(1);
			}
		}
	}

	@Test
	void aGroupsFallbackGetsTheOriginalResponse() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404).withBody("{\"type\":\"missing\"}")));
		try (ConfigurableApplicationContext context = run(GroupApplication.class, FallbackConfiguration.class)) {
			CatalogApi catalog = context.getBean(CatalogApi.class);

			String answer = catalog.item("1");

			assertThat(answer).isEqualTo("fallback for 404 missing");
			assertThat(wireCount()).isEqualTo(1);
		}
	}

	@Test
	void retryableOnAManagedGroupFailsStartupNamingTheMethod() {
		Throwable thrown = catchThrowable(() -> run(RetryingApplication.class).close());

		assertThat(thrown).isNotNull();
		assertThat(rootCause(thrown).getMessage()).contains("@Retryable on RetryingApi#item");
		assertThat(wireCount()).isZero();
	}

	/**
	 * Spring Boot's client factory property set to the JDK's HttpClient: said once per client at WARN (in each
	 * application), and the client's deadline lowers each attempt's timeout.
	 */
	@Test
	void aGroupOnTheJdkHttpClientIsSaidAndKeepsItsDeadline(CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("late").withFixedDelay(5_000)));
		for (int application = 1; application <= 2; application++) {
			try (ConfigurableApplicationContext context = run(GroupApplication.class,
					"--spring.http.clients.imperative.factory=jdk", "--triage.clients.catalog.deadline=1s")) {
				long start = System.nanoTime();
				Throwable thrown = catchThrowable(() -> context.getBean(CatalogApi.class).item("1"));
				long tookMillis = (System.nanoTime() - start) / 1_000_000;

				assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
				assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
				assertThat(tookMillis).as("ended at its deadline, not when the answer came").isLessThan(4_000);
			}
			assertThat(output.getOut().split("Client 'catalog': its RestClient's request factory sends with the JDK's "
					+ "HttpClient", -1)).as("said once in each application").hasSize(application + 1);
		}
	}

	@Test
	void aRetryingHttpClientThatTheApplicationsGroupConfigurerSetsFailsStartup() {
		Throwable thrown = catchThrowable(() -> run(GroupApplication.class, RetryingFactoryConfiguration.class).close());

		assertThat(thrown).isNotNull();
		assertThat(rootCause(thrown).getMessage()).contains("Client 'catalog'").contains("retries on its own");
		assertThat(wireCount()).isZero();
	}

	@Test
	void springCloudsHttpServiceCircuitBreakerOnAManagedGroupFailsStartupNamingTheProperty() {
		Throwable thrown = catchThrowable(() -> run(GroupApplication.class, CircuitBreakerFactoryConfiguration.class).close());

		assertThat(thrown).isNotNull();
		assertThat(rootCause(thrown).getMessage()).contains("spring.cloud.circuitbreaker.http-services.enabled");
	}

	@Test
	void withSpringCloudsHttpServiceCircuitBreakerOffTheGroupStarts() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(400)));
		try (ConfigurableApplicationContext context = run(GroupApplication.class, CircuitBreakerFactoryConfiguration.class,
				"--spring.cloud.circuitbreaker.http-services.enabled=false")) {
			Throwable thrown = catchThrowable(() -> context.getBean(CatalogApi.class).item("1"));

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			assertThat(wireCount()).isEqualTo(1);
		}
	}

	@Test
	void aGroupLeftAloneIsNotManaged() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		try (ConfigurableApplicationContext context = run(GroupApplication.class,
				"--triage.clients.catalog.enabled=false")) {
			Throwable thrown = catchThrowable(() -> context.getBean(CatalogApi.class).item("1"));

			assertThat(thrown).isNotInstanceOf(UpstreamResponseException.class);
			assertThat(wireCount()).isEqualTo(1);
		}
	}

	@Test
	void theEndpointListsAWebClientGroupAndAGroupLeftAloneAsNotManaged() {
		try (ConfigurableApplicationContext context = run(MixedGroupsApplication.class,
				"--triage.clients.catalog.enabled=false", "--management.endpoints.web.exposure.include=triage")) {
			context.getBean(FeedApi.class);

			TriageEndpoint.ClientsDescriptor clients = context.getBean(TriageEndpoint.class).clients();

			assertThat(clients.notManaged()).containsOnlyKeys("catalog", "feed");
			assertThat(clients.notManaged().get("feed")).contains("WebClient");
			assertThat(clients.notManaged().get("catalog")).contains("triage.clients.catalog.enabled");
			assertThat(clients.clients()).doesNotContainKeys("catalog", "feed");
		}
	}

	@Test
	void settingsOfAWebClientGroupAreSaidToApplyToNothing(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run(MixedGroupsApplication.class,
				"--triage.clients.feed.policies.5xx.max-attempts=2", "--triage.clients.feed.deadline=1s",
				"--management.endpoints.web.exposure.include=triage")) {
			context.getBean(FeedApi.class);

			assertThat(context.getBean(TriageEndpoint.class).clients().notManaged()).containsKey("feed");
			assertThat(output).contains("WARN")
				.contains("triage.clients.feed names a WebClient group of @ImportHttpServices: Triage manages "
						+ "RestClient groups only, so these settings apply to nothing")
				.doesNotContain("triage.clients.catalog names a WebClient group");
		}
	}

	@Test
	void aGroupCallWhoseBodyBreaksOffIsAResetAttemptRetriedAsItsRowSays() throws Exception {
		try (RawServer breaking = new RawServer();
				ConfigurableApplicationContext context = run(BreakingApplication.class,
						"--spring.http.serviceclient.breaking.base-url=" + breaking.url(),
						"--triage.policies.connection-reset.backoff.initial=1ms")) {
			breaking.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
					+ "Transfer-Encoding: chunked\r\n\r\n9\r\ndata: a\n\n\r\n40\r\n" + "x".repeat(18)));
			BreakingApi breakingApi = context.getBean(BreakingApi.class);

			Throwable thrown = java.util.concurrent.CompletableFuture
				.supplyAsync(() -> catchThrowable(() -> breakingApi.item("1")))
				.get(30, java.util.concurrent.TimeUnit.SECONDS);

			assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
			assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
			assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(2);
			assertThat(breaking.requests()).as("the connection-reset row: 2 attempts").isEqualTo(2);
		}
	}

	@Test
	void aStreamWhoseBodyBreaksOffWhileTheCallerReadsItSaysWhoseCallItWas() throws Exception {
		// Framework 7 hands an InputStream method's body to the caller after the call: the attempt is recorded as
		// the reset it is (the breaker counts a failure) and not made again (part of it was handed over); the read
		// throws an IOException naming the client, the method and the request.
		try (RawServer breaking = new RawServer();
				ConfigurableApplicationContext context = run(BreakingApplication.class,
						"--spring.http.serviceclient.breaking.base-url=" + breaking.url())) {
			breaking.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream"
					+ "\r\nContent-Length: 1000\r\n\r\n" + "x".repeat(18)));
			BreakingApi breakingApi = context.getBean(BreakingApi.class);
			java.io.InputStream stream = breakingApi.file("1");

			Throwable thrown = catchThrowable(stream::readAllBytes);

			assertThat(thrown).isInstanceOf(dev.triage.engine.TransportFailureException.class)
				.hasMessageContaining("breaking BreakingApi#file(String): connection-reset [GET " + breaking.url()
						+ "/files/1]");
			assertThat(((dev.triage.engine.TransportFailureException) thrown).failure())
				.isEqualTo(TransportFailure.CONNECTION_RESET);
			assertThat(breaking.requests()).isEqualTo(1);
			assertThat(context.getBean(CircuitBreakerRegistry.class)
				.circuitBreaker("breaking")
				.getMetrics()
				.getNumberOfFailedCalls()).isEqualTo(1);
		}
	}

	private static Throwable rootCause(Throwable thrown) {
		Throwable cause = thrown;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause;
	}

	private static ConfigurableApplicationContext run(Class<?> application, Object... more) {
		java.util.List<Class<?>> sources = new java.util.ArrayList<>();
		sources.add(application);
		java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--spring.main.web-application-type=none",
				"--spring.http.serviceclient.catalog.base-url=" + upstream.baseUrl(),
				"--spring.http.serviceclient.retrying.base-url=" + upstream.baseUrl(), "--triage.throttle.enabled=false",
				"--triage.retry-budget.enabled=false", "--triage.policies.503.pause=false",
				"--logging.level.dev.triage.calls=WARN"));
		for (Object extra : more) {
			if (extra instanceof Class<?> type) {
				sources.add(type);
			}
			else {
				args.add((String) extra);
			}
		}
		return new SpringApplication(sources.toArray(Class<?>[]::new)).run(args.toArray(String[]::new));
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

	interface CatalogApi {

		@GetExchange("/items/{id}")
		String item(@org.springframework.web.bind.annotation.PathVariable("id") String id);

	}

	interface BreakingApi {

		@GetExchange("/items/{id}")
		String item(@org.springframework.web.bind.annotation.PathVariable("id") String id);

		@GetExchange("/files/{id}")
		java.io.InputStream file(@org.springframework.web.bind.annotation.PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportHttpServices(group = "breaking", types = BreakingApi.class)
	static class BreakingApplication {

	}

	interface RetryingApi {

		@GetExchange("/items/{id}")
		@Retryable
		String item(@org.springframework.web.bind.annotation.PathVariable("id") String id);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportHttpServices(group = "catalog", types = CatalogApi.class)
	static class GroupApplication {

	}

	interface FeedApi {

		@GetExchange("/feed")
		reactor.core.publisher.Mono<String> feed();

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportHttpServices(group = "catalog", types = CatalogApi.class)
	@ImportHttpServices(group = "feed", types = FeedApi.class,
			clientType = org.springframework.web.service.registry.HttpServiceGroup.ClientType.WEB_CLIENT)
	static class MixedGroupsApplication {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableResilientMethods
	@ImportHttpServices(group = "retrying", types = RetryingApi.class)
	static class RetryingApplication {

	}

	static class CircuitBreakerFactoryConfiguration {

		@Bean
		CircuitBreakerFactory<Object, ConfigBuilder<Object>> circuitBreakerFactory() {
			return new CircuitBreakerFactory<>() {

				@Override
				public CircuitBreaker create(String id) {
					return new CircuitBreaker() {

						@Override
						public <T> T run(Supplier<T> toRun, Function<Throwable, T> fallback) {
							return toRun.get();
						}

					};
				}

				@Override
				protected ConfigBuilder<Object> configBuilder(String id) {
					return Object::new;
				}

				@Override
				public void configureDefault(Function<String, Object> defaultConfiguration) {
				}

			};
		}

	}

	static class RetryingFactoryConfiguration {

		@Bean
		org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer retryingFactory() {
			// Framework 7's default order, the lowest: runs after Triage's configurer that puts the group under its table
			return (groups) -> groups.forEachClient((group, builder) -> builder
				.requestFactory(new org.springframework.http.client.HttpComponentsClientHttpRequestFactory()));
		}

	}

	static class FallbackConfiguration {

		@Bean
		TriageFallback<CatalogApi> catalogFallback() {
			return (exception, response) -> (id) -> "fallback for " + response.status() + " " + response.errorType();
		}

	}

}
