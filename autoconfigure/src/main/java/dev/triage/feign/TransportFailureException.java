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

package dev.triage.feign;

import java.io.IOException;
import java.time.Duration;

import dev.triage.TransportFailure;

/**
 * An attempt's I/O failure, classified by {@link TriageClient}. Feign wraps it in a
 * {@link feign.RetryableException}; {@link TriageRetryer} unwraps it.
 */
final class TransportFailureException extends IOException {

	private final TransportFailure failure;

	private final Duration configuredTimeout;

	TransportFailureException(TransportFailure failure, Duration configuredTimeout, IOException cause) {
		super(failure.key() + ": " + cause.getClass().getSimpleName(), cause);
		this.failure = failure;
		this.configuredTimeout = configuredTimeout;
	}

	TransportFailure failure() {
		return this.failure;
	}

	Duration configuredTimeout() {
		return this.configuredTimeout;
	}

	IOException io() {
		return (IOException) getCause();
	}

}
