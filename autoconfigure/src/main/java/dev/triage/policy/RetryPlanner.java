package dev.triage.policy;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Decides, after a failed attempt, whether the rule allows another one and how long to wait.
 * Plain Java and stateless: every input of the decision is an argument.
 */
public final class RetryPlanner {

	private static final Set<String> IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

	private final DoubleSupplier random;

	/**
	 * Create a planner.
	 * @param random uniform random numbers in [0, 1) for jitter
	 */
	public RetryPlanner(DoubleSupplier random) {
		this.random = random;
	}

	/**
	 * Return whether a request may be replayed without risk of doing its work twice.
	 * @param httpMethod the request method
	 * @param hasIdempotencyKey whether the request carries an {@code Idempotency-Key} header
	 * @return whether it is idempotent
	 */
	public static boolean isIdempotent(String httpMethod, boolean hasIdempotencyKey) {
		return hasIdempotencyKey || IDEMPOTENT_METHODS.contains(httpMethod);
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
		if (attemptsMade >= rule.maxAttempts()) {
			return RetryDecision.exhausted();
		}
		if (rule.idempotentOnly() && !idempotent) {
			return RetryDecision.suppressed(RetryDecision.Suppression.NOT_IDEMPOTENT);
		}
		Duration wait;
		if (rule.retryAfter() == RetryAfterMode.HONOR && retryAfter.isPresent()) {
			wait = retryAfter.get();
			if (rule.retryAfterMax() != null && wait.compareTo(rule.retryAfterMax()) > 0) {
				return RetryDecision.suppressed(RetryDecision.Suppression.RETRY_AFTER_TOO_LONG);
			}
		}
		else {
			wait = rule.backoff().delay(attemptsMade, this.random.getAsDouble());
		}
		if (deadline != null && elapsed.plus(wait).compareTo(deadline) >= 0) {
			return RetryDecision.suppressed(RetryDecision.Suppression.DEADLINE);
		}
		return RetryDecision.retryAfter(wait);
	}

}
