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

import dev.triage.engine.ManagedClients;
import dev.triage.metrics.ConfigReloadMetrics;
import dev.triage.reload.ConfigHistory;
import dev.triage.metrics.OverloadMetrics;
import dev.triage.metrics.TriageMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Triage's meters, bound by Spring Boot's {@code MeterRegistry} post-processing like any {@code MeterBinder}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterRegistry.class)
class TriageMetricsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TriageMetrics triageMetrics() {
		return new TriageMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	OverloadMetrics triageOverloadMetrics(ManagedClients clients) {
		return new OverloadMetrics(clients);
	}

	@Bean
	@ConditionalOnMissingBean
	ConfigReloadMetrics triageConfigReloadMetrics(ConfigHistory history) {
		return new ConfigReloadMetrics(history);
	}

}
