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

import java.time.Clock;

import dev.triage.breaker.UpstreamBreakers;
import dev.triage.fallback.FallbackResolver;
import dev.triage.CallObserver;
import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import dev.triage.overload.ConcurrencyLimits;
import dev.triage.overload.Pauses;
import dev.triage.overload.RateLimits;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration that gives every Spring Cloud OpenFeign client and every Spring HTTP service client
 * ({@code @HttpExchange} on {@code RestClient}) Triage's failure policy: one engine per client, driven by
 * {@code triage.*} properties, with its per-upstream breakers, fallbacks, meters and endpoint. Each kind of client
 * is wired only when its library is on the classpath.
 */
@AutoConfiguration(beforeName = "org.springframework.cloud.openfeign.FeignAutoConfiguration",
		afterName = { "io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
				"io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "triage.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TriageProperties.class)
@Import({ TriageFeignConfiguration.class, TriageBreakerConfiguration.class, TriageHttpClient5Configuration.class,
		TriageBootHttpClientsConfiguration.class, TriageHttpServicesConfiguration.class,
		TriageRateLimiterConfiguration.class, TriageBulkheadConfiguration.class, TriageFleetConfiguration.class,
		TriageMetricsConfiguration.class, TriageEndpointConfiguration.class, TriageReloadConfiguration.class })
public class TriageAutoConfiguration {

	static final String SPECIFICATION_NAME = TriageFeignConfiguration.SPECIFICATION_NAME;

	/**
	 * The settings' version history (SPEC §12): 1 at startup, one more per change applied while running.
	 */
	@Bean
	@ConditionalOnMissingBean
	ConfigHistory triageConfigHistory() {
		return new ConfigHistory(Clock.systemUTC());
	}

	/**
	 * One Resilience4j breaker per upstream, in the application's registry.
	 */
	@Bean
	UpstreamBreakers triageUpstreamBreakers(ObjectProvider<CircuitBreakerRegistry> registry,
			ObjectProvider<UpstreamBreakers.LateSettings> lateBreakerSettings, Environment environment) {
		ApplicationSettings.rejectSecondBreakerLayer(environment);
		return new UpstreamBreakers(registry.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
				(name) -> ApplicationSettings.breakerConfigured(environment, name),
				lateBreakerSettings.getIfAvailable(() -> (name) -> null));
	}

	@Bean
	RegistryRebuilt triageBreakersRebuilt(UpstreamBreakers breakers) {
		return breakers::registryRebuilt;
	}

	/**
	 * Builds each client's runtime from the settings: at startup, and again for each change applied while running.
	 * The properties bean is bound (and a bad value reported) first; the factory builds from a copy bound beside it,
	 * because Spring Cloud Context's rebinder writes every later change into the bean, refused ones included, and a
	 * client met after a refused change must still get the settings in force.
	 */
	@Bean
	ManagedClientsFactory triageManagedClientsFactory(TriageProperties properties, ObjectProvider<DeclaredClients> declared,
			UpstreamBreakers breakers, ObjectProvider<CallObserver> observers,
			ObjectProvider<RateLimits> rateLimits, ObjectProvider<ConcurrencyLimits> concurrencyLimits,
			ObjectProvider<Pauses> pauses, ApplicationEventPublisher eventPublisher, Environment environment) {
		return new ManagedClientsFactory(SettingsReload.bind(environment), breakers,
				ApplicationSettings.observer(observers, properties.getCallLogWindow()),
				declared.getIfAvailable(() -> DeclaredClients.NONE).poolTimeout(),
				RateLimits.all(rateLimits.orderedStream().toList()),
				concurrencyLimits.getIfAvailable(() -> ConcurrencyLimits.NONE), pauses.getIfAvailable(() -> Pauses.LOCAL),
				eventPublisher);
	}

	/**
	 * Resolves at startup the policy table, breaker and limits of every client the application declares (the
	 * Feign clients, one per {@code @FeignClient} name; HTTP service clients are added when created); a bad table
	 * fails startup here. Fallbacks belong to interfaces: each adapter finds its interface's own.
	 */
	@Bean
	@ConditionalOnMissingBean
	ManagedClients triageManagedClients(ManagedClientsFactory factory, ObjectProvider<DeclaredClients> declared) {
		return factory.create(declared.getIfAvailable(() -> DeclaredClients.NONE));
	}

	/**
	 * Finds the {@code TriageFallback} bean of a client interface, for every kind of client.
	 */
	@Bean
	FallbackResolver triageFallbackResolver(ConfigurableListableBeanFactory beanFactory) {
		return new FallbackResolver(beanFactory);
	}

}
