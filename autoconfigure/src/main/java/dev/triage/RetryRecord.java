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

package dev.triage;

import java.time.Duration;

/**
 * A failed attempt that is retried, as a {@link CallObserver} is told.
 *
 * @param client the client name
 * @param methodKey the method key
 * @param attempt the number of the failed attempt, from 1
 * @param maxAttempts the attempts the failed attempt's rule allows in all
 * @param code the status or transport failure key of the failed attempt, e.g. {@code 503} or
 * {@code read-timeout}
 * @param delay the wait before the next attempt
 * @param channel the channel the next attempt goes to, {@code null} for a client without other channels
 */
public record RetryRecord(String client, String methodKey, int attempt, int maxAttempts, String code, Duration delay,
		String channel) {

}
