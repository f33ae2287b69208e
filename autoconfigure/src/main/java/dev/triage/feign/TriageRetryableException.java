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

import dev.triage.UpstreamResponseException;
import dev.triage.policy.RetryAfter;
import dev.triage.policy.RetryAfterMode;
import dev.triage.policy.Rule;
import feign.Request;
import feign.RetryableException;

/**
 * A non-2xx answer whose rule may allow another attempt. It carries the outcome and its rule to
 * {@link TriageRetryer}, which decides; Feign's own {@code retryAfter} is left empty so that no other
 * retryer reads the header behind Triage's back.
 */
final class TriageRetryableException extends RetryableException {

	private final UpstreamResponseException failure;

	private final Rule rule;

	TriageRetryableException(UpstreamResponseException failure, Rule rule, Request request) {
		super(failure.response().status(), failure.getMessage(),
				(request != null) ? request.httpMethod() : Request.HttpMethod.GET, retryAfter(failure, rule), request);
		this.failure = failure;
		this.rule = rule;
	}

	/**
	 * When the answer's {@code Retry-After} is one its rule honours, the moment it names (epoch milliseconds), for
	 * an application's own retryer: Feign's {@code Retryer.Default} waits until then (at most its longest interval).
	 */
	private static Long retryAfter(UpstreamResponseException failure, Rule rule) {
		if (rule.retryAfter() != RetryAfterMode.HONOR) {
			return null;
		}
		return failure.response()
			.retryAfter()
			.filter((wait) -> !RetryAfter.isBeyondLimit(wait))
			.map((wait) -> System.currentTimeMillis() + wait.toMillis())
			.orElse(null);
	}

	UpstreamResponseException failure() {
		return this.failure;
	}

	Rule rule() {
		return this.rule;
	}

}
