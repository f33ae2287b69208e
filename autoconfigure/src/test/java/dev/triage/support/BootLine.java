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

package dev.triage.support;

import java.util.List;

/**
 * What differs between the Spring Boot lines the tests run on (3.5 and 4.0), looked up by name so that one test
 * tree compiles and runs on both.
 */
public final class BootLine {

	/**
	 * Resilience4j's circuit-breaker auto-configuration: one module per Boot line.
	 */
	public static final List<String> RESILIENCE4J_CIRCUIT_BREAKER_AUTO_CONFIGURATIONS = List.of(
			"io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
			"io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration");

	private BootLine() {
	}

	/**
	 * Return Resilience4j's circuit-breaker auto-configuration of the Boot line on the classpath.
	 */
	public static Class<?> resilience4jCircuitBreakerAutoConfiguration() {
		return present(RESILIENCE4J_CIRCUIT_BREAKER_AUTO_CONFIGURATIONS);
	}

	private static Class<?> present(List<String> candidates) {
		for (String name : candidates) {
			try {
				return Class.forName(name, false, BootLine.class.getClassLoader());
			}
			catch (ClassNotFoundException ex) {
				// the other line's
			}
		}
		throw new IllegalStateException("None of " + candidates + " is on the classpath");
	}

}
