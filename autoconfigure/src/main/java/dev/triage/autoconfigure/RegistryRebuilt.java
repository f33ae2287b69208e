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

/**
 * Puts what Triage uses from one of Resilience4j's registries (breakers, rate limiters, bulkheads) back into it
 * after Resilience4j built it anew: its Spring Boot module declares its registries refresh-scoped when Spring
 * Cloud Context is present, so a refresh ({@code /actuator/refresh}) replaces them.
 */
@FunctionalInterface
interface RegistryRebuilt {

	/**
	 * Called after a refresh of Spring Cloud Context's refresh scope.
	 */
	void rebuilt();

}
