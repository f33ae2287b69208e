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

import java.time.Instant;

/**
 * A request turned out to be poison: the same request (method, full URL, body) kept failing with a poison status
 * (default 500) while the upstream answered other requests. Seed 001: "同一个请求重试三次都是 500，就不再是上游抖动了，
 * 把它扔进死信队列". Published once per poisoning through Spring's {@code ApplicationEventPublisher}; handle it
 * with an {@code @EventListener} to store the request in a dead letter. For the poison {@code ttl}, calls with
 * the same fingerprint are refused with {@link Refusal#POISON} without reaching the wire.
 *
 * @param client the Feign client name
 * @param methodKey the Feign method key
 * @param httpMethod the request method
 * @param url the request URL, user info dropped and query values masked
 * @param fingerprint the HMAC-SHA256 of method, full URL and body, keyed with a secret the application makes at
 * startup, in hex
 * @param body the request body, capped at {@code triage.max-body-bytes}, empty when there was none
 * @param lastResponse what the upstream answered the last time
 * @param failures how many consecutive times the request failed
 * @param at when it became poison
 */
public record PoisonRequestEvent(String client, String methodKey, String httpMethod, String url, String fingerprint,
		byte[] body, OriginalResponse lastResponse, int failures, Instant at) {

	/**
	 * Create an instance; a {@code null} body becomes empty.
	 */
	public PoisonRequestEvent {
		body = (body != null) ? body : new byte[0];
	}

	@Override
	public String toString() {
		return "PoisonRequestEvent[client=" + this.client + ", methodKey=" + this.methodKey + ", request="
				+ this.httpMethod + " " + this.url + ", fingerprint=" + this.fingerprint + ", bodyBytes="
				+ this.body.length + ", failures=" + this.failures + ", at=" + this.at + "]";
	}

}
