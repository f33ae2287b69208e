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

/**
 * Base of the exceptions a Triage-managed Feign call throws when it finally fails and no fallback answered.
 * Messages name the client, method key and outcome; they never carry header values or query strings.
 */
public abstract class UpstreamException extends RuntimeException {

	private final String client;

	private final String methodKey;

	private final int attempts;

	/**
	 * Create an instance.
	 * @param message the message
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param attempts the attempts that reached the wire, 0 when none did
	 * @param cause the cause, may be {@code null}
	 */
	protected UpstreamException(String message, String client, String methodKey, int attempts, Throwable cause) {
		this(message, client, methodKey, attempts, cause, true);
	}

	/**
	 * Create an instance, with or without a stack trace.
	 * @param message the message
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param attempts the attempts that reached the wire, 0 when none did
	 * @param cause the cause, may be {@code null}
	 * @param writableStackTrace whether a stack trace is recorded
	 */
	protected UpstreamException(String message, String client, String methodKey, int attempts, Throwable cause,
			boolean writableStackTrace) {
		super(message, cause, true, writableStackTrace);
		this.client = client;
		this.methodKey = methodKey;
		this.attempts = attempts;
	}

	/**
	 * Return the Feign client name.
	 * @return the client name
	 */
	public String client() {
		return this.client;
	}

	/**
	 * Return the Feign method key, e.g. {@code InventoryClient#item(String)}.
	 * @return the method key
	 */
	public String methodKey() {
		return this.methodKey;
	}

	/**
	 * Return how many attempts reached the wire, 0 when none did.
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts;
	}

}
