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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.triage.support.BootLine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;

/**
 * Triage's auto-configuration runs after Resilience4j's, on whichever Boot line: Triage registers its breaker
 * defaults on Resilience4j's properties and finds its registry. (Sorted by name alone, {@code dev.triage} would
 * come first.)
 */
class AutoConfigurationOrderTests {

	@Test
	void triageComesAfterResilience4jsCircuitBreakerAutoConfiguration() {
		Class<?> resilience4j = BootLine.resilience4jCircuitBreakerAutoConfiguration();
		List<Class<?>> sorted = List.of(Configurations
			.getClasses(AutoConfigurations.of(TriageAutoConfiguration.class, resilience4j)));
		assertThat(sorted).containsExactly(resilience4j, TriageAutoConfiguration.class);
	}

	@Test
	void theOrderingHintNamesTheAutoConfigurationOfEveryBootLine() {
		org.springframework.boot.autoconfigure.AutoConfiguration hint = TriageAutoConfiguration.class
			.getAnnotation(org.springframework.boot.autoconfigure.AutoConfiguration.class);
		assertThat(hint.afterName()).containsAll(BootLine.RESILIENCE4J_CIRCUIT_BREAKER_AUTO_CONFIGURATIONS);
	}

}
