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

import dev.triage.overload.Resilience4jRateLimits;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A client whose name has a configured Resilience4j rate limiter
 * ({@code resilience4j.ratelimiter.instances.<client>}) takes a permit before every attempt.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RateLimiterRegistry.class)
class TriageRateLimiterConfiguration {

	@Bean
	Resilience4jRateLimits triageRateLimits(ObjectProvider<RateLimiterRegistry> registry, Environment environment) {
		return new Resilience4jRateLimits(registry::getIfAvailable,
				(client) -> ApplicationSettings.configured(environment, "resilience4j.ratelimiter.instances." + client));
	}

	@Bean
	RegistryRebuilt triageRateLimitersRebuilt(Resilience4jRateLimits limits) {
		return limits::registryRebuilt;
	}

}
