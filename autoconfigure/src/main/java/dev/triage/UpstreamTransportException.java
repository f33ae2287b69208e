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
 * No HTTP response came back: the pool, the connection or the read failed.
 */
public class UpstreamTransportException extends UpstreamException {

	private final TransportFailure failure;

	private final Duration configuredTimeout;

	/**
	 * Create an instance.
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param requestLine the request method and URL, query values masked
	 * @param failure what kind of transport failure this was
	 * @param configuredTimeout the configured value of the timeout that fired, {@code null} when no timeout did
	 * @param attempts the attempts made
	 * @param cause the I/O exception underneath
	 */
	public UpstreamTransportException(String client, String methodKey, String requestLine, TransportFailure failure,
			Duration configuredTimeout, int attempts, Throwable cause) {
		super(message(client, methodKey, requestLine, failure, configuredTimeout, attempts, cause), client, methodKey,
				attempts, cause);
		this.failure = failure;
		this.configuredTimeout = configuredTimeout;
	}

	private static String message(String client, String methodKey, String requestLine, TransportFailure failure,
			Duration configuredTimeout, int attempts, Throwable cause) {
		StringBuilder message = new StringBuilder();
		message.append(client).append(' ').append(methodKey).append(": ").append(failure.key());
		if (configuredTimeout != null) {
			message.append(" (configured ").append(configuredTimeout.toMillis()).append("ms)");
		}
		message.append(" after ").append(attempts).append(attempts == 1 ? " attempt" : " attempts");
		message.append(" [").append(requestLine).append(']');
		if (cause != null) {
			message.append(": ").append(cause.getClass().getSimpleName());
		}
		return message.toString();
	}

	/**
	 * Return what kind of transport failure ended the call.
	 * @return the failure
	 */
	public TransportFailure failure() {
		return this.failure;
	}

	/**
	 * Return the configured value of the timeout that fired.
	 * @return the timeout, or {@code null} when the failure was not a timeout
	 */
	public Duration configuredTimeout() {
		return this.configuredTimeout;
	}

}
