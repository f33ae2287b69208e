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

import java.util.function.Supplier;

import dev.triage.FailureClass;
import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.UpstreamException;
import dev.triage.policy.Rule;

/**
 * What one attempt ended in, as the protections see it: a status (with its rule, unless a 2xx) or a transport
 * failure, how long it took, and the answer the caller would get, built only when someone asks.
 */
final class Outcome {

	final int status;

	final TransportFailure failure;

	final FailureClass failureClass;

	final Rule rule;

	// Set again when a 2xx's body has arrived: the attempt's whole duration (Engine.Settlement).
	long durationNanos;

	final String retryAfter;

	final boolean responded;

	final boolean raw;

	final Supplier<OriginalResponse> response;

	final Supplier<UpstreamException> answer;

	private Outcome(int status, TransportFailure failure, FailureClass failureClass, Rule rule, long durationNanos,
			String retryAfter, boolean responded, boolean raw, Supplier<OriginalResponse> response,
			Supplier<UpstreamException> answer) {
		this.status = status;
		this.failure = failure;
		this.failureClass = failureClass;
		this.rule = rule;
		this.durationNanos = durationNanos;
		this.retryAfter = retryAfter;
		this.responded = responded;
		this.raw = raw;
		this.response = response;
		this.answer = answer;
	}

	static Outcome success(int status, long durationNanos) {
		return new Outcome(status, null, FailureClass.SUCCESS_2XX, null, durationNanos, null, true, false, null, null);
	}

	static Outcome response(int status, Rule rule, long durationNanos, String retryAfter, boolean raw,
			Supplier<OriginalResponse> response, Supplier<UpstreamException> answer) {
		return new Outcome(status, null, Engine.failureClass(status), rule, durationNanos, retryAfter, true, raw,
				response, answer);
	}

	static Outcome streamError(int status, Rule rule, long durationNanos, Supplier<UpstreamException> answer) {
		return new Outcome(status, null, FailureClass.STREAM_ERROR, rule, durationNanos, null, true, false, null,
				answer);
	}

	static Outcome transport(TransportFailure failure, Rule rule, long durationNanos,
			Supplier<UpstreamException> answer) {
		return new Outcome(0, failure, FailureClass.TRANSPORT, rule, durationNanos, null, false, false, null, answer);
	}

	boolean success() {
		return this.rule == null;
	}

	/**
	 * Return a supplier that builds its value at most once, and only if asked.
	 */
	static <T> Supplier<T> once(Supplier<T> build) {
		return new Supplier<>() {

			private T built;

			@Override
			public T get() {
				if (this.built == null) {
					this.built = build.get();
				}
				return this.built;
			}

		};
	}

}
