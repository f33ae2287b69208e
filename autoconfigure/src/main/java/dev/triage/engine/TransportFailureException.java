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

package dev.triage.engine;

import java.io.IOException;
import java.time.Duration;

import dev.triage.TransportFailure;

/**
 * An attempt's I/O failure, classified by the {@link Engine}; the adapters hand it to
 * the engine's retry decision. A caller reading a 2xx body after its call (an HTTP service method returning an
 * {@code InputStream} on Spring Framework 7) gets it from the stream's {@code read} when the body breaks off.
 */
public final class TransportFailureException extends IOException {

	private final TransportFailure failure;

	private final Duration configuredTimeout;

	/**
	 * Create the failure of an attempt.
	 * @param failure its kind
	 * @param configuredTimeout the timeout that fired, {@code null} for none
	 * @param cause the client's exception
	 */
	public TransportFailureException(TransportFailure failure, Duration configuredTimeout, IOException cause) {
		this(failure.key() + ": " + cause.getClass().getSimpleName(), failure, configuredTimeout, cause);
	}

	/**
	 * Create the failure of an attempt, with a message that says whose attempt it was: what a caller reading a
	 * body after its call (a stream it was handed) gets.
	 * @param message the message
	 * @param failure its kind
	 * @param configuredTimeout the timeout that fired, {@code null} for none
	 * @param cause the client's exception
	 */
	public TransportFailureException(String message, TransportFailure failure, Duration configuredTimeout,
			IOException cause) {
		super(message, cause);
		this.failure = failure;
		this.configuredTimeout = configuredTimeout;
	}

	/**
	 * Return the kind of failure.
	 * @return the kind
	 */
	public TransportFailure failure() {
		return this.failure;
	}

	/**
	 * Return the timeout that fired.
	 * @return the configured value, {@code null} for none
	 */
	public Duration configuredTimeout() {
		return this.configuredTimeout;
	}

	/**
	 * Return the client's own exception.
	 * @return the cause
	 */
	public IOException io() {
		return (IOException) getCause();
	}

}
