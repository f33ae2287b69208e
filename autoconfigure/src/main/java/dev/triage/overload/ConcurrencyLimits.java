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
package dev.triage.overload;

/**
 * Finds the concurrency limit of a client: Resilience4j's bulkhead of the same name when the application
 * configured one, else {@link ConcurrencyLimit#NONE}.
 */
@FunctionalInterface
public interface ConcurrencyLimits {

	/** No client has a limit. */
	ConcurrencyLimits NONE = (client) -> ConcurrencyLimit.NONE;

	/**
	 * Return the limit of a client.
	 * @param client the client name
	 * @return its limit, {@link ConcurrencyLimit#NONE} when none is configured
	 */
	ConcurrencyLimit forClient(String client);

}
