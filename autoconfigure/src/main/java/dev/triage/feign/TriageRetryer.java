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
import java.util.Optional;

import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.Call;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.RefusedException;
import dev.triage.engine.Requests;
import dev.triage.engine.TransportFailureException;
import dev.triage.engine.TransportFailures;
import dev.triage.policy.RetryAfterMode;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.RetryPlanner;
import dev.triage.policy.Rule;
import feign.Request;
import feign.RetryableException;
import feign.Retryer;

/**
 * Feign's retry hook, translated for the {@link Engine}: after each failed attempt the engine decides whether
 * the rule allows another and waits the backoff or {@code Retry-After}; otherwise the call ends with Triage's
 * typed exception. Replaces Feign's habit of retrying every I/O exception: an I/O failure is retried only when
 * its transport rule says so.
 * <p>
 * An application's own {@link Retryer} (declared for the client or the application) decides when to retry and
 * when to give up, within the table: every retry the table refuses (beyond {@code max-attempts}, a write without
 * an {@code Idempotency-Key}, a {@code Retry-After} above {@code retry-after-max}, an empty budget, an open
 * breaker, a poison request, the deadline) stays refused, and no attempt starts after the deadline.
 * <p>
 * Stateful per call: {@link #clone()} returns a fresh instance, as Feign expects.
 */
public final class TriageRetryer implements Retryer {

	private final ManagedClient client;

	/** The least time before the deadline an attempt after an application retryer's wait starts with. */
	private static final Duration LAST_ATTEMPT_AT_LEAST = RetryPlanner.LEAST_TIME_FOR_AN_ATTEMPT;

	/** The application's own retryer, which waits in Triage's place; {@code null} for none. */
	private final Retryer own;

	private final long startNanos = System.nanoTime();

	private int ownAttempts;

	/**
	 * Create a retryer for one client.
	 * @param client the client
	 */
	public TriageRetryer(ManagedClient client) {
		this(client, null);
	}

	/**
	 * Create a retryer for one client that leaves the waits to the application's own retryer, within the table.
	 * @param client the client
	 * @param own the application's retryer, {@code null} for none
	 */
	public TriageRetryer(ManagedClient client, Retryer own) {
		this.client = client;
		this.own = own;
	}

	@Override
	public void continueOrPropagate(RetryableException e) {
		Call call = Call.current(this.client);
		Engine engine = (call != null) ? call.engine() : this.client.engine();
		ClientRuntime runtime = engine.runtime();
		Throwable cause = e.getCause();
		if (cause instanceof RefusedException refusal) {
			throw engine.refused(call, refusal);
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
			// The request of the attempt that failed (on its channel), not the one Feign built for the primary.
			String requestLine = (call != null) ? call.requestLine() : null;
			UpstreamTransportException transport = new UpstreamTransportException(runtime.name(),
					(call != null) ? call.methodKey() : "", (requestLine != null) ? requestLine : requestLine(e.request()),
					kind,
					(classified != null) ? classified.configuredTimeout() : null, attempts,
					(classified != null) ? classified.io() : io);
			rule = runtime.policy().forTransport(kind);
			if (call != null) {
				call.failed(transport, rule);
			}
			failure = transport;
		}
		else {
			// A RetryableException from the user's own error decoder: judged by its status alone.
			failure = e;
			rule = runtime.policy().forStatus(e.status(), null);
		}
		Request request = e.request();
		boolean idempotent = request != null && engine.isIdempotent(request.httpMethod().name(), request.headers());
		RetryDecision decision = engine.decide(call, rule, tries, idempotent, retryAfter, elapsed, this.own != null);
		if (!decision.retry()) {
			throw failure;
		}
		if (this.own == null) {
			engine.await(call, decision, failure);
			return;
		}
		// The application's retryer waits its own interval, or gives up (it throws what it was given: the method
		// handler turns that into the typed exception).
		long waitStart = System.nanoTime();
		try {
			this.own.continueOrPropagate(e);
		}
		catch (RuntimeException gaveUp) {
			engine.retryerGaveUp(call);
			throw gaveUp;
		}
		// Never earlier than the server asked (a Retry-After the rule honours, on the same channel): the rest of it
		// when the retryer waited less; and no attempt once the deadline has passed, or is about to (less than a
		// few milliseconds left: the attempt could only be cut, and would end the call as a timeout
		// instead of the last answer).
		Duration rest = Duration.ZERO;
		if (retryAfter.isPresent() && rule.retryAfter() == RetryAfterMode.HONOR && !decision.delay().isZero()) {
			rest = retryAfter.get().minusNanos(System.nanoTime() - waitStart);
		}
		if (engine.deadlinePassed(call, (rest.isNegative() ? Duration.ZERO : rest).plus(LAST_ATTEMPT_AT_LEAST))) {
			throw failure;
		}
		if (!rest.isNegative() && !rest.isZero()) {
			engine.await(call, rest, failure);
		}
		engine.retrying(call, decision, rule, tries, Duration.ofNanos(System.nanoTime() - waitStart));
	}

	static String requestLine(Request request) {
		return (request != null) ? Requests.requestLine(request.httpMethod().name(), request.url()) : "";
	}

	@Override
	public Retryer clone() {
		return new TriageRetryer(this.client, (this.own != null) ? this.own.clone() : null);
	}

}
