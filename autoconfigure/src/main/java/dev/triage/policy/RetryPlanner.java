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

package dev.triage.policy;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;

/**
 * Decides, after a failed attempt, whether the rule allows another one and how long to wait.
 * Plain Java and stateless: every input of the decision is an argument.
 */
public final class RetryPlanner {

	/**
	 * The methods replayed by default. Seed 000: "对于写操作接口(POST, PUT, DELETE)默认不重试除非有完善的幂等性保障"
	 * (write endpoints are not retried by default unless idempotency is guaranteed): PUT and DELETE are
	 * idempotent by RFC 9110, but many APIs do not keep that promise, so applications opt them in.
	 */
	/**
	 * The least of the call's deadline a retry must have left after its wait: one with less would be cut while it
	 * runs (or, on Apache HttpClient 5, held back before its request is sent), and the call would end on that cut
	 * rather than on the answer that asked for the retry.
	 */
	public static final Duration LEAST_TIME_FOR_AN_ATTEMPT = Duration.ofMillis(10);

	public static final Set<String> DEFAULT_IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

	private final DoubleSupplier random;

	private final Set<String> idempotentMethods;

	/**
	 * Create a planner that treats the default methods as idempotent.
	 * @param random uniform random numbers in [0, 1) for jitter
	 */
	public RetryPlanner(DoubleSupplier random) {
		this(random, DEFAULT_IDEMPOTENT_METHODS);
	}

	/**
	 * Create a planner.
	 * @param random uniform random numbers in [0, 1) for jitter
	 * @param idempotentMethods the HTTP methods that may be replayed without an {@code Idempotency-Key}
	 */
	public RetryPlanner(DoubleSupplier random, Set<String> idempotentMethods) {
		this.random = random;
		this.idempotentMethods = idempotentMethods.stream()
			.map((method) -> method.trim().toUpperCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return whether a request may be replayed without risk of doing its work twice.
	 * @param httpMethod the request method
	 * @param hasIdempotencyKey whether the request carries an {@code Idempotency-Key} header
	 * @return whether it is idempotent
	 */
	public boolean isIdempotent(String httpMethod, boolean hasIdempotencyKey) {
		return hasIdempotencyKey || this.idempotentMethods.contains(httpMethod);
	}

	/**
	 * Return the methods replayed without an {@code Idempotency-Key}.
	 * @return the upper-case method names
	 */
	public Set<String> idempotentMethods() {
		return this.idempotentMethods;
	}

	/**
	 * Decide about the next attempt.
	 * @param rule the rule of the failed attempt's outcome
	 * @param attemptsMade attempts made so far, including the failed one
	 * @param idempotent whether the request may be replayed
	 * @param retryAfter the valid {@code Retry-After} of the failed attempt, if any
	 * @param elapsed time spent on the call so far
	 * @param deadline the client's total budget for the call, {@code null} for none
	 * @return the decision
	 */
	public RetryDecision decide(Rule rule, int attemptsMade, boolean idempotent, Optional<Duration> retryAfter,
			Duration elapsed, Duration deadline) {
		return decide(rule, attemptsMade, idempotent, retryAfter, elapsed, deadline, false);
	}

	/**
	 * Decide about the next attempt, which may go at once to another channel.
	 * @param rule the rule of the failed attempt's outcome
	 * @param attemptsMade attempts made so far, including the failed one
	 * @param idempotent whether the request may be replayed
	 * @param retryAfter the valid {@code Retry-After} of the failed attempt, if any
	 * @param elapsed time spent on the call so far
	 * @param deadline the client's total budget for the call, {@code null} for none
	 * @param failover whether the next attempt goes to another channel: no backoff, no {@code Retry-After} wait
	 * (that channel did not ask for one), and allowed even when {@code max-attempts} is spent
	 * @return the decision
	 */
	public RetryDecision decide(Rule rule, int attemptsMade, boolean idempotent, Optional<Duration> retryAfter,
			Duration elapsed, Duration deadline, boolean failover) {
		// Switching channels is not hammering the one that failed: a failover attempt may go beyond
		// max-attempts (a 599 or a refused connection, tried once per channel, still switches).
		if (attemptsMade >= rule.maxAttempts() && !failover) {
			return RetryDecision.exhausted();
		}
		if (rule.idempotentOnly() && !idempotent) {
			return RetryDecision.suppressed(RetryDecision.Suppression.NOT_IDEMPOTENT);
		}
		Duration wait;
		if (failover) {
			wait = Duration.ZERO;
		}
		else if (rule.retryAfter() == RetryAfterMode.HONOR && retryAfter.isPresent()) {
			Duration asked = retryAfter.get();
			if (RetryAfter.isBeyondLimit(asked)
					|| (rule.retryAfterMax() != null && asked.compareTo(rule.retryAfterMax()) > 0)) {
				return RetryDecision.suppressed(RetryDecision.Suppression.RETRY_AFTER_TOO_LONG);
			}
			wait = jittered(asked, rule.backoff());
		}
		else {
			wait = rule.backoff().delay(attemptsMade, this.random.getAsDouble());
		}
		if (deadline != null && elapsed.plus(wait).plus(LEAST_TIME_FOR_AN_ATTEMPT).compareTo(deadline) > 0) {
			return RetryDecision.suppressed(RetryDecision.Suppression.DEADLINE);
		}
		return RetryDecision.retryAfter(wait);
	}

	/**
	 * Seed 001, on 429: "必须退避，且要有抖动" (back off, with jitter). Callers given the same header must not come
	 * back in the same millisecond: the wait is what the server asked plus a random extra of up to
	 * {@code jitter} of it, capped at {@code backoff.max}, and never shorter than asked.
	 */
	private Duration jittered(Duration asked, Backoff backoff) {
		// Rounded up: an HTTP-date asks for a whole second, measured from a clock that reads sub-milliseconds.
		long askedMillis = asked.plusNanos(999_999).toMillis();
		long extra = Math.round(askedMillis * backoff.jitter() * this.random.getAsDouble());
		long capped = Math.min(askedMillis + extra, backoff.max().toMillis());
		return Duration.ofMillis(Math.max(askedMillis, capped));
	}

}
