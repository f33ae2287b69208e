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

import java.util.LinkedHashMap;
import java.util.Map;

import dev.triage.breaker.UpstreamBreakers;
import dev.triage.fallback.FallbackResolver;
import dev.triage.CallObserver;
import dev.triage.engine.ManagedClients;
import dev.triage.overload.RateLimits;
import feign.Feign;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpClientProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration that gives every Spring Cloud OpenFeign client Triage's error decoder, retryer,
 * per-upstream breaker and fallback, driven by {@code triage.*} properties.
 */
@AutoConfiguration(before = FeignAutoConfiguration.class,
		afterName = { "io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
				"io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration" })
@ConditionalOnClass({ Feign.class, FeignClientSpecification.class })
@ConditionalOnBooleanProperty(name = "triage.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TriageProperties.class)
@Import({ TriageBreakerConfiguration.class, TriageHttpClient5Configuration.class,
		TriageBootHttpClientsConfiguration.class,
		TriageRateLimiterConfiguration.class, TriageMetricsConfiguration.class, TriageEndpointConfiguration.class })
public class TriageAutoConfiguration {

	static final String SPECIFICATION_NAME = "default.dev.triage.feign.TriageFeignClientConfiguration";

	/**
	 * Registers Triage's per-client configuration in every Feign client context.
	 * @return the specification
	 */
	@Bean
	static FeignClientSpecification triageFeignClientSpecification() {
		return new FeignClientSpecification(SPECIFICATION_NAME, TriageAutoConfiguration.class.getName(),
				new Class<?>[] { TriageFeignClientConfiguration.class });
	}

	/**
	 * Resolves, once at startup, the policy table, breaker and fallback of every Feign client the application
	 * declares; a bad table fails startup here.
	 */
	@Bean
	@ConditionalOnMissingBean
	ManagedClients triageManagedClients(TriageProperties properties,
			ObjectProvider<FeignClientSpecification> specifications, ObjectProvider<CircuitBreakerRegistry> registry,
			ObjectProvider<FeignHttpClientProperties> httpClientProperties, ObjectProvider<CallObserver> observers,
			ObjectProvider<RateLimits> rateLimits, ObjectProvider<FeignClientProperties> feignClientProperties,
			ApplicationEventPublisher eventPublisher, ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		ApplicationSettings.rejectSecondBreakerLayer(environment);
		UpstreamBreakers breakers = new UpstreamBreakers(registry.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
				(name) -> ApplicationSettings.breakerConfigured(environment, name));
		ManagedClientsFactory factory = new ManagedClientsFactory(properties, breakers, new FallbackResolver(beanFactory),
				ApplicationSettings.observer(observers),
				ApplicationSettings.poolTimeout(httpClientProperties.getIfAvailable()),
				rateLimits.getIfAvailable(() -> RateLimits.NONE), eventPublisher);
		Map<String, String> clients = new LinkedHashMap<>();
		specifications.orderedStream()
			.filter((spec) -> !spec.getName().startsWith("default."))
			.forEach((spec) -> clients.put(spec.getName(), spec.getClassName()));
		ManagedClients managed = factory.create(clients, beanFactory.getBeanClassLoader());
		TimeoutLayering.warnWhereReadTimeoutExceedsDeadline(
				clients.keySet().stream().filter(factory::isEnabled).toList(), properties,
				feignClientProperties.getIfAvailable());
		return managed;
	}

}
