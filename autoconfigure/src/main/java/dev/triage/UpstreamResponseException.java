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
 * The upstream answered, and the final answer was not a 2xx.
 */
public class UpstreamResponseException extends UpstreamException {

	private final OriginalResponse response;

	private String message;

	/**
	 * Create an instance.
	 * @param response what the upstream said on the final attempt
	 */
	public UpstreamResponseException(OriginalResponse response) {
		super(null, response.client(), response.methodKey(), response.attempts(), null);
		this.response = response;
	}

	/**
	 * Return the message, written when first asked for: a failed attempt that is retried is described by this
	 * exception too, and nobody may ever read its message.
	 */
	@Override
	public String getMessage() {
		if (this.message == null) {
			this.message = message(this.response);
		}
		return this.message;
	}

	private static String message(OriginalResponse response) {
		StringBuilder message = new StringBuilder();
		message.append(response.client()).append(' ').append(response.methodKey()).append(": HTTP ")
			.append(response.status());
		if (!response.reason().isEmpty()) {
			message.append(' ').append(OriginalResponse.shown(response.reason()));
		}
		if (response.errorType() != null) {
			message.append(" (type ").append(OriginalResponse.shown(response.errorType())).append(')');
		}
		message.append(" after ").append(response.attempts()).append(response.attempts() == 1 ? " attempt" : " attempts");
		message.append(" [").append(response.httpMethod()).append(' ').append(response.url()).append(']');
		return message.toString();
	}

	/**
	 * Return what the upstream said on the final attempt.
	 * @return the original response
	 */
	public OriginalResponse response() {
		return this.response;
	}

}
