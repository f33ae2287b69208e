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
 * Triage refused the call before it reached the wire: the upstream's breaker is open, it asked to be paused,
 * the client is throttling itself, its rate limiter had no permit, or the request is poison. A refusal is an
 * expected answer, not a bug in the caller's code: like Resilience4j's {@code CallNotPermittedException} it
 * carries no stack trace, which keeps refusing cheap while an upstream is down.
 */
public class UpstreamUnavailableException extends UpstreamException {

	private final Refusal refusal;

	/**
	 * Create an instance.
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param refusal why the call was refused
	 * @param detail what refused it, e.g. {@code circuit breaker 'inventory' is OPEN}
	 * @param attempts the attempts that reached the wire before the refusal
	 */
	public UpstreamUnavailableException(String client, String methodKey, Refusal refusal, String detail,
			int attempts) {
		super(client + " " + methodKey + ": not called, " + refusal.tag() + " (" + detail + ")", client, methodKey,
				attempts, null, false);
		this.refusal = refusal;
	}

	/**
	 * Return why the call was refused.
	 * @return the refusal
	 */
	public Refusal refusal() {
		return this.refusal;
	}

}
