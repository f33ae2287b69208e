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

import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Triage's breaker defaults under the application's Resilience4j configuration, when Resilience4j's Spring Boot
 * module builds the registry from properties.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(CommonCircuitBreakerConfigurationProperties.class)
class TriageBreakerConfiguration {

	@Bean
	static BreakerDefaults triageBreakerDefaults(ListableBeanFactory beanFactory, Environment environment) {
		return new BreakerDefaults(beanFactory, environment);
	}

}
