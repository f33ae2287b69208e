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
import java.util.ArrayList;
import java.util.List;

import dev.triage.engine.CallLog;
import dev.triage.CallObserver;
import dev.triage.engine.CompositeCallObserver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.env.Environment;

/**
 * What {@link TriageAutoConfiguration} reads from the rest of the application: other libraries' settings and
 * the observers to tell.
 */
final class ApplicationSettings {

	private ApplicationSettings() {
	}

	static CallObserver observer(ObjectProvider<CallObserver> observers, Duration callLogWindow) {
		List<CallObserver> all = new ArrayList<>();
		all.add(new CallLog((callLogWindow != null) ? callLogWindow : CallLog.WINDOW, System::nanoTime));
		observers.orderedStream().forEach(all::add);
		return new CompositeCallObserver(all);
	}

	/**
	 * Spring Cloud OpenFeign's own circuit breaker would wrap every managed client in a second breaker, per
	 * method, that counts Triage's typed exceptions (a 400 included) as failures: refuse rather than
	 * double-count.
	 */
	static void rejectSecondBreakerLayer(Environment environment) {
		if (environment.getProperty("spring.cloud.openfeign.circuitbreaker.enabled", Boolean.class, false)) {
			throw new ConflictingSettingException("Feign clients", "spring.cloud.openfeign.circuitbreaker.enabled",
					true,
					"Spring Cloud OpenFeign would wrap every client in a second circuit breaker, per method, that counts "
							+ "Triage's typed exceptions (a 400 included) as failures",
					"Remove 'spring.cloud.openfeign.circuitbreaker.enabled' (or set it to false): Triage already gives "
							+ "each upstream one Resilience4j breaker (configure it under "
							+ "resilience4j.circuitbreaker.instances.<client>), and TriageFallback beans replace "
							+ "@FeignClient(fallback). Or set triage.enabled=false to use Spring Cloud's instead.");
		}
	}

	static boolean breakerConfigured(Environment environment, String name) {
		return configured(environment, "resilience4j.circuitbreaker.instances." + name)
				|| configured(environment, "resilience4j.circuitbreaker.configs.default");
	}

	/**
	 * Return whether any property under a prefix is set.
	 */
	static boolean configured(Environment environment, String prefix) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(prefix, '.');
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
				return true;
			}
		}
		return false;
	}

}
