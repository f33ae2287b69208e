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

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.triage.TransportFailure;
import dev.triage.UpstreamException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.channel.Channels;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;
import feign.Request;
import feign.RetryableException;
import feign.Retryer;

/**
 * Decides after each failed attempt whether the rule allows another, waits the backoff or
 * {@code Retry-After}, and otherwise ends the call with Triage's typed exception. Replaces Feign's habit of
 * retrying every I/O exception: an I/O failure is retried only when its transport rule says so.
 * <p>
 * Stateful per call: {@link #clone()} returns a fresh instance, as Feign expects.
 */
public final class TriageRetryer implements Retryer {

	private final ClientRuntime runtime;

	private final long startNanos = System.nanoTime();

	private int ownAttempts;

	/**
	 * Create a retryer for one client.
	 * @param runtime the client's runtime
	 */
	public TriageRetryer(ClientRuntime runtime) {
		this.runtime = runtime;
	}

	@Override
	public void continueOrPropagate(RetryableException e) {
		CallContext call = CallContext.current(this.runtime);
		Throwable cause = e.getCause();
		if (cause instanceof RefusedException refusal) {
			throw refused(call, refusal);
		}
		int tries = (call != null) ? call.tries() : ++this.ownAttempts;
		int attempts = (call != null) ? call.attempts() : tries;
		Duration elapsed = Duration.ofNanos((call != null) ? call.elapsedNanos() : System.nanoTime() - this.startNanos);
		RuntimeException failure;
		Rule rule;
		Optional<Duration> retryAfter = Optional.empty();
		if (e instanceof TriageRetryableException triage) {
			failure = triage.failure();
			rule = triage.rule();
			retryAfter = triage.failure().response().retryAfter();
		}
		else if (cause instanceof IOException io) {
			TransportFailureException classified = (io instanceof TransportFailureException tfe) ? tfe : null;
			TransportFailure kind = (classified != null) ? classified.failure() : TransportFailures.classify(io);
			UpstreamTransportException transport = new UpstreamTransportException(this.runtime.name(),
					(call != null) ? call.methodKey() : "", Requests.requestLine(e.request()), kind,
					(classified != null) ? classified.configuredTimeout() : null, attempts,
					(classified != null) ? classified.io() : io);
			rule = this.runtime.policy().forTransport(kind);
			if (call != null) {
				call.failed(transport, rule);
			}
			failure = transport;
		}
		else {
			// A RetryableException from the user's own error decoder: judged by its status alone.
			failure = e;
			rule = this.runtime.policy().forStatus(e.status(), null);
		}
		// Seed 001: "重试解决抖动，切换解决故障": an outcome that says the channel is down moves the next attempt,
		// at once, to the next channel that could take it; without one it is an ordinary retry.
		Channels channels = this.runtime.channels();
		int current = (call != null) ? call.channel() : 0;
		int failover = (rule.failover() && channels.hasAlternatives()) ? channels.nextAvailableAfter(current) : -1;
		RetryDecision decision = this.runtime.planner()
			.decide(rule, tries, isIdempotent(e.request()), retryAfter, elapsed, this.runtime.deadline(), failover >= 0);
		int next = (failover >= 0) ? failover : current;
		if (decision.retry() && call != null && call.poisoned()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.POISON);
		}
		else if (decision.retry() && channels.get(next).breaker().isOpen()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.BREAKER_OPEN);
		}
		else if (decision.retry() && !this.runtime.overload().budget().tryRetry()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.BUDGET);
		}
		if (decision.retry() && call != null) {
			call.channel(next);
		}
		this.runtime.observer().onRetryDecision(this.runtime.name(), decision);
		if (call != null && decision.suppressed() != null) {
			call.suppressed(decision.suppressed());
		}
		if (!decision.retry()) {
			throw failure;
		}
		sleep(decision.delay(), failure);
	}

	private RuntimeException refused(CallContext call, RefusedException cause) {
		UpstreamException last = (call != null) ? call.lastFailure() : null;
		if (last != null) {
			// A retry was refused (the breaker opened, the upstream paused, ...): the caller gets what really
			// happened on the last attempt that reached the wire.
			RetryDecision.Suppression reason = RetryDecision.Suppression.valueOf(cause.refusal().name());
			this.runtime.observer().onRetryDecision(this.runtime.name(), RetryDecision.suppressed(reason));
			call.suppressed(reason);
			return last;
		}
		return new UpstreamUnavailableException(this.runtime.name(), (call != null) ? call.methodKey() : "",
				cause.refusal(), cause.getMessage(), (call != null) ? call.attempts() : 0);
	}

	private boolean isIdempotent(Request request) {
		if (request == null) {
			return false;
		}
		Map<String, Collection<String>> headers = request.headers();
		boolean hasKey = Requests.firstHeader(headers, "Idempotency-Key") != null;
		return this.runtime.planner().isIdempotent(request.httpMethod().name(), hasKey);
	}

	private static void sleep(Duration wait, RuntimeException failure) {
		if (wait.isZero()) {
			return;
		}
		try {
			Thread.sleep(wait.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failure;
		}
	}

	@Override
	public Retryer clone() {
		return new TriageRetryer(this.runtime);
	}

}
