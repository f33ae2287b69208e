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

package dev.triage.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.mockito.Mockito.mock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import dev.triage.TransportFailure;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.TriageHttpServices;
import dev.triage.engine.ManagedClients;
import dev.triage.metrics.TriageMetrics;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.InvalidPolicyException;
import dev.triage.policy.PolicyTable;
import feign.Feign;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.clientconfig.HttpClient5FeignConfiguration.HttpClientBuilderCustomizer;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

class TriageAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TriageAutoConfiguration.class, FeignAutoConfiguration.class));

	@Test
	void registersPerClientConfigurationRegistryAndHttpClientCustomizer() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ManagedClients.class);
			assertThat(context).hasSingleBean(HttpClientBuilderCustomizer.class);
			assertThat(context.getBeansOfType(FeignClientSpecification.class).values())
				.anySatisfy((spec) -> assertThat(spec.getName()).isEqualTo(TriageAutoConfiguration.SPECIFICATION_NAME)
					.startsWith("default."));
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("triage.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ManagedClients.class);
			assertThat(context).doesNotHaveBean(HttpClientBuilderCustomizer.class);
		});
	}

	@Test
	void withoutFeignOnlyTheHttpServiceClientsAreManaged() {
		// SPEC §11: an application without Spring Cloud OpenFeign runs HTTP service clients alone.
		this.contextRunner.withClassLoader(new FilteredClassLoader(Feign.class)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(ManagedClients.class);
			assertThat(context).hasSingleBean(TriageHttpServices.class);
			assertThat(context).doesNotHaveBean(FeignClientSpecification.class);
		});
	}

	@Test
	void backsOffFromAUserRegistry() {
		ManagedClients own = new ManagedClients(java.util.Map.of(), (name) -> null);
		this.contextRunner.withBean(ManagedClients.class, () -> own)
			.run((context) -> assertThat(context.getBean(ManagedClients.class)).isSameAs(own));
	}

	@Test
	void badPolicyKeyFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("triage.policies.5xy.max-attempts=2").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidPolicyException.class)
				.hasMessageContaining("triage.policies.5xy");
		});
	}

	@Test
	void badClientRuleFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("triage.clients.inventory.policies.503.max-attempts=0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.clients.inventory.policies.503.max-attempts"));
	}

	@Test
	void badDeadlineFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("triage.clients.inventory.deadline=-1s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.clients.inventory.deadline"));
	}


	@Test
	void aTypoUnderTriageFailsStartupNamingItAndTheClosestValidKey() {
		this.contextRunner.withPropertyValues("triage.clients.inventory.policies.503.max-attempt=5").run((context) -> {
			assertThat(context).hasFailed();
			org.springframework.boot.diagnostics.FailureAnalysis analysis = new UnknownPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("triage.clients.inventory.policies.503.max-attempt")
				.contains("Did you mean: triage.clients.inventory.policies.503.max-attempts");
		});
		this.contextRunner.withPropertyValues("triage.throttle.max-drop-probablity=0.5")
			.run((context) -> assertThat(new UnknownPropertyFailureAnalyzer().analyze(context.getStartupFailure())
				.getDescription()).contains("Did you mean: triage.throttle.max-drop-probability"));
	}

	@Test
	void theConditionReportSaysWhyAClientIsNotManaged() {
		org.springframework.mock.env.MockEnvironment environment = new org.springframework.mock.env.MockEnvironment()
			.withProperty("spring.cloud.openfeign.client.name", "billing")
			.withProperty("triage.clients.billing.enabled", "false");
		org.springframework.context.annotation.ConditionContext context = org.mockito.Mockito
			.mock(org.springframework.context.annotation.ConditionContext.class);
		org.mockito.Mockito.when(context.getEnvironment()).thenReturn(environment);

		org.springframework.boot.autoconfigure.condition.ConditionOutcome outcome = new OnManagedClientCondition()
			.getMatchOutcome(context, null);

		assertThat(outcome.isMatch()).isFalse();
		assertThat(outcome.getMessage()).contains("billing").contains("triage.clients.billing.enabled=false");
	}

	@Test
	void configuredSensitiveHeadersAddToTheBuiltInOnes() {
		this.contextRunner.withPropertyValues("triage.sensitive-headers=X-Auth-Token").run((context) -> {
			java.util.Set<String> sensitive = context.getBean(ManagedClients.class).get("any").sensitiveHeaders();
			assertThat(sensitive).contains("x-auth-token", "authorization", "proxy-authorization", "cookie",
					"set-cookie", "x-api-key");
		});
	}

	@Test
	void badOverloadSettingsFailStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("triage.throttle.max-drop-probability=1.0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.throttle.max-drop-probability"));
		this.contextRunner.withPropertyValues("triage.clients.inventory.retry-budget.ratio=-1")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.clients.inventory.retry-budget.ratio"));
		this.contextRunner.withPropertyValues("triage.idempotent-methods=GET,P0ST")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.idempotent-methods[1]"));
		this.contextRunner.withPropertyValues("triage.connection-pool.evict-idle-after=-1s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidPolicyException.class)
				.hasMessageContaining("triage.connection-pool.evict-idle-after")
				.hasMessageContaining("a duration of 0 or more"));
	}

	@Test
	void aChannelThatIsNotAnAbsoluteHttpUrlFailsStartupNamingTheProperty() {
		for (String url : new String[] { "backup.example.com", "ftp://backup.example.com", "/relative", "http://" }) {
			this.contextRunner.withPropertyValues("triage.clients.inventory.channels.backup=" + url)
				.run((context) -> assertThat(context.getStartupFailure()).as(url)
					.rootCause()
					.isInstanceOf(InvalidPolicyException.class)
					.hasMessageContaining("triage.clients.inventory.channels.backup")
					.hasMessageContaining("absolute http or https"));
		}
	}

	@Test
	void aChannelUrlWithUserInfoOrAQuerySaysThatIsWhatIsNotAllowed() {
		String[][] cases = { { "http://user:pw@127.0.0.1:9/base", "without user info" },
				{ "http://user:pw@127.0.0.1:9/base?token=t", "without user info" },
				{ "http://127.0.0.1:9/base?token=t", "without a query or fragment" },
				{ "http://127.0.0.1:9/base#part", "without a query or fragment" } };
		for (String[] each : cases) {
			this.contextRunner.withPropertyValues("triage.clients.inventory.channels.backup=" + each[0])
				.run((context) -> assertThat(context.getStartupFailure()).as(each[0])
					.rootCause()
					.isInstanceOf(InvalidPolicyException.class)
					.hasMessageContaining("triage.clients.inventory.channels.backup")
					.hasMessageContaining(each[1])
					.hasMessageNotContaining("absolute http"));
		}
	}

	@Test
	void aChannelWhoseBreakerNameClashesFailsStartup() {
		this.contextRunner.withBean("inventoryBackupSpec", FeignClientSpecification.class,
				() -> new FeignClientSpecification("inventory-backup", null, new Class<?>[0]))
			.withPropertyValues("triage.clients.inventory.channels.backup=http://127.0.0.1:9")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.clients.inventory.channels.backup")
				.hasMessageContaining("'inventory-backup'"));
		this.contextRunner.withPropertyValues("triage.clients.inventory.channels.primary=http://127.0.0.1:9")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("triage.clients.inventory.channels.primary"));
	}

	@Test
	void springCloudsBreakerAroundAnHttpServiceGroupIsRefusedNamingTheGroupNotFeign() {
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("circuitBreakerFactory", mock(CircuitBreakerFactory.class));
		HttpServiceGroupChecks checks = new HttpServiceGroupChecks(beans, new MockEnvironment());

		Throwable thrown = catchThrowable(() -> checks.check("catalog", List.of()));

		assertThat(thrown).isInstanceOf(ConflictingSettingException.class);
		org.springframework.boot.diagnostics.FailureAnalysis analysis = new ConflictingSettingFailureAnalyzer(null)
			.analyze(thrown);
		assertThat(analysis.getDescription())
			.startsWith("Triage cannot manage HTTP service group 'catalog' with this setting")
			.contains(HttpServiceGroupChecks.SPRING_CLOUD_BREAKER);
		assertThat(analysis.getAction()).contains("triage.clients.catalog.enabled=false");
	}

	@Test
	void springCloudOpenFeignsOwnBreakerIsRefusedRatherThanDoubleCounting() {
		this.contextRunner.withPropertyValues("spring.cloud.openfeign.circuitbreaker.enabled=true")
			.run((context) -> {
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(ConflictingSettingException.class)
					.hasMessageContaining("spring.cloud.openfeign.circuitbreaker.enabled");
				org.springframework.boot.diagnostics.FailureAnalysis analysis = new ConflictingSettingFailureAnalyzer(null)
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("Triage cannot manage Feign clients with this setting")
					.doesNotContain("policy table");
				assertThat(analysis.getAction()).contains("triage.enabled=false");
			});
	}

	@Test
	void springCloudOpenFeignsOwnBreakerIsFineWhenTriageIsOff() {
		this.contextRunner.withPropertyValues("spring.cloud.openfeign.circuitbreaker.enabled=true", "triage.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}


	@Test
	void endpointIsAbsentUntilExposed() {
		ApplicationContextRunner runner = this.contextRunner
			.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class));
		runner.run((context) -> assertThat(context).doesNotHaveBean(TriageEndpoint.class));
		runner.withPropertyValues("management.endpoints.web.exposure.include=triage")
			.run((context) -> assertThat(context).hasSingleBean(TriageEndpoint.class));
		runner.withPropertyValues("management.endpoints.web.exposure.include=triage",
				"management.endpoints.web.exposure.exclude=triage")
			.run((context) -> assertThat(context).doesNotHaveBean(TriageEndpoint.class));
	}

	@Test
	void metersAreBoundWhenMicrometerIsPresent() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(TriageMetrics.class));
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(TriageMetrics.class));
	}


	@Test
	void yamlTableBindsQuotedAndUnquotedKeys() {
		this.contextRunner.withInitializer((context) -> {
			try {
				new YamlPropertySourceLoader().load("policy-keys", new ClassPathResource("policy-keys.yml"))
					.forEach(context.getEnvironment().getPropertySources()::addFirst);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}).run((context) -> {
			PolicyTable table = context.getBean(ManagedClients.class).get("inventory").policy();
			assertThat(table.forStatus(503, null).maxAttempts()).isEqualTo(5);
			assertThat(table.forStatus(504, null).maxAttempts()).isEqualTo(4);
			assertThat(table.forStatus(500, null).breaker()).isEqualTo(BreakerOutcome.IGNORE);
			assertThat(table.forTransport(TransportFailure.READ_TIMEOUT).maxAttempts()).isEqualTo(1);
			assertThat(table.forStatus(520, null).alert()).isFalse();
			assertThat(table.forStatus(429, "rate.limited").maxAttempts()).isEqualTo(6);
			assertThat(context.getBean(ManagedClients.class).get("inventory").deadline()).isEqualTo(Duration.ofSeconds(2));
		});
	}


	@Test
	void worksWithoutActuatorOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(ManagedClients.class);
				assertThat(context).doesNotHaveBean(TriageEndpoint.class);
			});
	}


	@Test
	void worksWithoutApacheHttpClient5() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.apache.hc")).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(ManagedClients.class);
			assertThat(context).doesNotHaveBean(HttpClientBuilderCustomizer.class);
		});
	}

}
