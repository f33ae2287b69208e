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

import dev.triage.policy.Rule;

/**
 * What one attempt of a managed call ended in, as a {@link CallObserver} is told: a status, or a transport
 * failure.
 *
 * @param client the client name
 * @param status the HTTP status, 0 for a transport failure
 * @param failure the transport failure, {@code null} when a response came back
 * @param failureClass the bounded class of the outcome
 * @param rule the rule the outcome resolved to, {@code null} for a success
 * @param durationNanos how long the attempt took
 * @param channel the channel the attempt went to, {@code primary} for the client's own URL
 */
public record AttemptOutcome(String client, int status, TransportFailure failure, FailureClass failureClass, Rule rule,
		long durationNanos, String channel) {

	/**
	 * Create the outcome of an attempt on the client's own URL.
	 */
	public AttemptOutcome(String client, int status, TransportFailure failure, FailureClass failureClass, Rule rule,
			long durationNanos) {
		this(client, status, failure, failureClass, rule, durationNanos, OriginalResponse.PRIMARY);
	}

	/**
	 * Return the code tag: the status, or the transport failure key.
	 * @return the code
	 */
	public String code() {
		if (this.failure != null) {
			return this.failure.key();
		}
		return (this.status >= 0 && this.status < STATUS_TEXT.length) ? STATUS_TEXT[this.status]
				: Integer.toString(this.status);
	}

	/** Status codes as text, made once: the code tag of every attempt. */
	private static final String[] STATUS_TEXT = statusTexts();

	private static String[] statusTexts() {
		String[] texts = new String[1000];
		for (int i = 0; i < texts.length; i++) {
			texts[i] = Integer.toString(i);
		}
		return texts;
	}

}
