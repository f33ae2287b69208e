package dev.triage.feign;

import dev.triage.UpstreamResponseException;
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
				(request != null) ? request.httpMethod() : Request.HttpMethod.GET, (Long) null, request);
		this.failure = failure;
		this.rule = rule;
	}

	UpstreamResponseException failure() {
		return this.failure;
	}

	Rule rule() {
		return this.rule;
	}

}
