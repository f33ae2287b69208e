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

import java.time.Duration;

import dev.triage.engine.AttemptAbortInterceptor;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.openfeign.clientconfig.HttpClient5FeignConfiguration.HttpClientBuilderCustomizer;
import org.springframework.cloud.openfeign.support.FeignHttpClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Spring Cloud OpenFeign's Apache HttpClient 5 client, made fit for Triage: its own retries off (it replays
 * idempotent requests after I/O errors and 429/503 answers with {@code Retry-After}), so the number of requests
 * on the wire is the policy table's; each attempt's hard bound; stale pooled connections checked and idle ones
 * evicted.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ HttpClientBuilder.class, HttpClientBuilderCustomizer.class })
class TriageHttpClient5Configuration {

	/**
	 * No automatic retries; and the hard bound of each attempt (the call's deadline; three read timeouts for a
	 * trickled answer), which shuts the attempt's connection down when it passes, even mid-body.
	 */
	@Bean
	HttpClientBuilderCustomizer triageHttpClient5(TriageProperties properties) {
		Duration evictIdle = properties.getConnectionPool().getEvictIdleAfter();
		return (builder) -> {
			AttemptAbortInterceptor.addTo(builder.disableAutomaticRetries());
			if (evictIdle != null && !evictIdle.isZero()) {
				builder.evictIdleConnections(TimeValue.ofMilliseconds(evictIdle.toMillis()));
			}
		};
	}

	@Bean
	static StaleConnectionGuard triageStaleConnectionGuard(Environment environment,
			ObjectProvider<FeignHttpClientProperties> feignProperties) {
		Duration validate = environment.getProperty("triage.connection-pool.validate-after-inactivity", Duration.class,
				TriageProperties.ConnectionPool.DEFAULT_VALIDATE_AFTER_INACTIVITY);
		return new StaleConnectionGuard(validate, feignProperties);
	}

}
