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

import java.time.Duration;

import dev.triage.OriginalResponse;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.engine.Call;
import dev.triage.engine.CapturedBody;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.policy.Rule;
import feign.Request;
import feign.Response;
import feign.RetryableException;
import feign.codec.ErrorDecoder;

/**
 * Turns a non-2xx response into Triage's outcome. When the rule never retries the final
 * {@link UpstreamResponseException} is returned right away; otherwise a retryable exception hands the outcome
 * to the retryer. Unlike Feign's default decoder, a {@code Retry-After} header alone never makes a status
 * retryable. Around an application's own error decoder (a bean of its own, in a client's configuration, or named
 * in {@code spring.cloud.openfeign.client.config}) the table still decides what is retried; the application's
 * decoder makes the exception the caller gets.
 */
public final class TriageErrorDecoder implements ErrorDecoder {

	private final ManagedClient client;

	/** The application's own error decoder, which makes the exception the caller gets; {@code null} for none. */
	private final ErrorDecoder own;

	/**
	 * Create a decoder for one client.
	 * @param client the client
	 */
	public TriageErrorDecoder(ManagedClient client) {
		this(client, null);
	}

	/**
	 * Create a decoder for one client around the application's own: the table still decides what is retried,
	 * and the application's decoder makes the exception the caller gets for the answer that ends the call.
	 * @param client the client
	 * @param own the application's error decoder, {@code null} for none
	 */
	public TriageErrorDecoder(ManagedClient client, ErrorDecoder own) {
		this.client = client;
		this.own = own;
	}

	@Override
	public Exception decode(String methodKey, Response response) {
		Call call = Call.current(this.client);
		Engine engine = (call != null) ? call.engine() : this.client.engine();
		ClientRuntime runtime = engine.runtime();
		CapturedBody body = TriageClient.capture(response, runtime);
		Rule rule = runtime.policy().forStatus(response.status(), body.errorType());
		UpstreamResponseException failure = answered(call, response);
		if (failure == null) {
			int attempts = (call != null) ? call.attempts() : 1;
			Duration elapsed = (call != null) ? Duration.ofNanos(call.elapsedNanos()) : Duration.ZERO;
			Request request = response.request();
			failure = new UpstreamResponseException(engine.original(methodKey,
					(request != null) ? request.httpMethod().name() : null, (request != null) ? request.url() : null,
					response.status(), response.reason(), response.headers(), body, attempts, elapsed,
					(call != null) ? call.lastChannel() : OriginalResponse.PRIMARY));
		}
		if (call != null) {
			call.failed(failure, rule);
		}
		boolean retryable = rule.retries() || (rule.failover() && runtime.channels().hasAlternatives());
		if (this.own != null) {
			// Asked now, while the answer is at hand (its body is buffered): the caller gets what it makes of the
			// answer that ends the call. Whether another attempt follows is the table's to say, also when the
			// decoder returns a RetryableException (Feign's default decoder does for a Retry-After): the rule
			// knows the error type and honours the Retry-After.
			Exception decoded = this.own.decode(methodKey, response);
			if (!retryable && !(decoded instanceof RetryableException)) {
				return decoded;
			}
			if (call != null && decoded instanceof RuntimeException unchecked) {
				call.decodedByApplication(failure, unchecked);
			}
		}
		if (!retryable) {
			return failure;
		}
		return new TriageRetryableException(failure, rule, response.request());
	}

	/**
	 * Return the outcome the engine already described for this attempt, so that the {@code OriginalResponse}
	 * and its exception are built once per failed attempt.
	 */
	private static UpstreamResponseException answered(Call call, Response response) {
		UpstreamException answer = (call != null) ? call.lastAnswer() : null;
		return (answer instanceof UpstreamResponseException known && known.response().status() == response.status())
				? known : null;
	}

}
