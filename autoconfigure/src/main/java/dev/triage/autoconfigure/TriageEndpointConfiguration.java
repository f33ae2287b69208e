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

import dev.triage.actuate.RecentFailures;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import dev.triage.fleet.FleetStatus;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@code triage} actuator endpoint and the recent-failure store behind it. The endpoint condition sits on
 * the bean methods: on the class it would be loaded, and fail, before the class check could skip it in an
 * application without Actuator.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
class TriageEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(TriageEndpoint.class)
	RecentFailures triageRecentFailures() {
		return new RecentFailures(Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(TriageEndpoint.class)
	TriageEndpoint triageEndpoint(ManagedClients clients, RecentFailures failures,
			ObjectProvider<DeclaredClients> declared, Environment environment,
			ConfigurableListableBeanFactory beanFactory, ObjectProvider<FleetStatus> fleet, ConfigHistory config) {
		return new TriageEndpoint(clients, failures, PrimaryUrls.of(declared.getIfAvailable(() -> DeclaredClients.NONE),
				environment, beanFactory.getBeanClassLoader()), fleet.getIfAvailable(() -> FleetStatus.LOCAL), config);
	}

}
