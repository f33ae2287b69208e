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

import dev.triage.overload.Resilience4jConcurrencyLimits;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A client whose name has a configured Resilience4j bulkhead ({@code resilience4j.bulkhead.instances.<client>})
 * runs every attempt inside one of its permits.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(BulkheadRegistry.class)
class TriageBulkheadConfiguration {

	@Bean
	Resilience4jConcurrencyLimits triageConcurrencyLimits(ObjectProvider<BulkheadRegistry> registry,
			Environment environment) {
		return new Resilience4jConcurrencyLimits(registry::getIfAvailable,
				(client) -> ApplicationSettings.configured(environment, "resilience4j.bulkhead.instances." + client));
	}

	@Bean
	RegistryRebuilt triageBulkheadsRebuilt(Resilience4jConcurrencyLimits limits) {
		return limits::registryRebuilt;
	}

}
