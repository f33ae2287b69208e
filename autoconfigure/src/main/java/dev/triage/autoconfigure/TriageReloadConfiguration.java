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

import java.util.Map;

import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.context.scope.refresh.RefreshScopeRefreshedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Changing the settings while the application runs (SPEC §12), triggered by Spring Cloud Context's
 * {@link EnvironmentChangeEvent}: {@code /actuator/refresh}, Spring Cloud Bus, a Kubernetes ConfigMap reload.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.cloud.context.environment.EnvironmentChangeEvent")
class TriageReloadConfiguration {

	/** Spring Cloud's list of classes its rebinder leaves alone, and its own default. */
	static final String NEVER_REFRESHABLE = "spring.cloud.refresh.never-refreshable";

	private static final String SPRING_CLOUD_DEFAULT = "com.zaxxer.hikari.HikariDataSource";

	@Bean
	SettingsReload triageSettingsReload(ManagedClientsFactory factory, ManagedClients clients,
			ObjectProvider<DeclaredClients> declared, Environment environment, ConfigHistory history) {
		leaveToTriage(environment);
		return new SettingsReload(factory, clients,
				declared.getIfAvailable(() -> DeclaredClients.NONE), environment, history);
	}

	@Bean
	ApplicationListener<EnvironmentChangeEvent> triageSettingsReloadListener(SettingsReload reload) {
		return new Listener(reload);
	}

	@Bean
	ApplicationListener<RefreshScopeRefreshedEvent> triageRegistriesRebuiltListener(
			ObjectProvider<RegistryRebuilt> rebuilt) {
		return new Rebuilt(rebuilt);
	}

	/**
	 * Triage binds and validates its settings itself at a change: Spring Cloud's rebinder is told to leave
	 * {@link TriageProperties} alone (a default, last of the property sources, for an application that has not set
	 * {@code spring.cloud.refresh.never-refreshable} itself), or a value that does not convert would make it fail
	 * the refresh with the value whole in its exception (a secret pasted in the wrong key reaching the logs).
	 */
	private static void leaveToTriage(Environment environment) {
		if (environment instanceof ConfigurableEnvironment configurable
				&& !environment.containsProperty(NEVER_REFRESHABLE)) {
			configurable.getPropertySources()
				.addLast(new MapPropertySource("triage-never-refreshable", Map.of(NEVER_REFRESHABLE,
						SPRING_CLOUD_DEFAULT + "," + TriageProperties.class.getName())));
		}
	}

	/**
	 * After a refresh, Resilience4j's refresh-scoped registries are new: Triage's breakers, limiters and
	 * bulkheads go back into them.
	 */
	private record Rebuilt(ObjectProvider<RegistryRebuilt> rebuilt)
			implements ApplicationListener<RefreshScopeRefreshedEvent> {

		@Override
		public void onApplicationEvent(RefreshScopeRefreshedEvent event) {
			this.rebuilt.orderedStream().forEach(RegistryRebuilt::rebuilt);
		}

	}

	/**
	 * Runs before Spring Cloud's rebinder, so that a change Triage refuses is refused (and logged) even when the
	 * rebinder then fails on it.
	 */
	private record Listener(SettingsReload reload) implements ApplicationListener<EnvironmentChangeEvent>, Ordered {

		@Override
		public void onApplicationEvent(EnvironmentChangeEvent event) {
			this.reload.changed(event.getKeys());
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

}
