package dev.triage.policy;

import static dev.triage.policy.BreakerOutcome.FAILURE;
import static dev.triage.policy.BreakerOutcome.IGNORE;
import static dev.triage.policy.BreakerOutcome.SUCCESS;
import static dev.triage.policy.RetryAfterMode.HONOR;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.triage.TransportFailure;

/**
 * The built-in policy table: the one place the defaults of the README's table are written down.
 * <p>
 * Rows that never retry still carry safe values for the retry fields (a 200ms ×2 → 2s backoff with ±50%
 * jitter, {@code Retry-After} ignored, idempotent requests only), so that a user who raises only
 * {@code max-attempts} on such a row gets a cautious retry rather than a hammering one.
 */
public final class DefaultPolicies {

	private static final Backoff SAFE_BACKOFF = backoff(200, 2, 2_000, 0.5);

	private static final Map<PolicyKey, Rule> TABLE = build();

	private DefaultPolicies() {
	}

	/**
	 * Return the built-in rules, in the README's order.
	 * @return an unmodifiable map of key to rule
	 */
	public static Map<PolicyKey, Rule> table() {
		return TABLE;
	}

	private static Map<PolicyKey, Rule> build() {
		Map<PolicyKey, Rule> table = new LinkedHashMap<>();
		Rule neverRetriedSuccess = never(SUCCESS, false);
		table.put(PolicyKey.statusClass(3), neverRetriedSuccess);
		table.put(PolicyKey.statusClass(4), neverRetriedSuccess);
		table.put(PolicyKey.status(408), new Rule(2, backoff(200, 2, 1_000, 0.5), HONOR, null, true, FAILURE, false, true));
		table.put(PolicyKey.status(429), new Rule(4, backoff(1_000, 2, 30_000, 0.5), HONOR, seconds(60), false, IGNORE, false, true));
		table.put(PolicyKey.status(498), new Rule(3, backoff(1_000, 2, 30_000, 0.5), HONOR, seconds(60), false, IGNORE, false, true));
		table.put(PolicyKey.status(499), never(IGNORE, false));
		table.put(PolicyKey.statusClass(5), new Rule(3, SAFE_BACKOFF, HONOR, seconds(30), true, FAILURE, true, true));
		table.put(PolicyKey.status(501), never(IGNORE, true));
		table.put(PolicyKey.status(505), never(IGNORE, true));
		table.put(PolicyKey.status(502), new Rule(3, backoff(1_000, 2, 4_000, 0.5), HONOR, seconds(30), true, FAILURE, true, true));
		table.put(PolicyKey.status(503), new Rule(3, backoff(1_000, 2, 8_000, 0.5), HONOR, seconds(60), false, FAILURE, true, true));
		table.put(PolicyKey.status(504), new Rule(2, Backoff.fixed(seconds(1)), HONOR, seconds(30), true, FAILURE, true, true));
		table.put(PolicyKey.status(599), never(FAILURE, true));
		for (TransportFailure failure : new TransportFailure[] { TransportFailure.CONNECT_TIMEOUT,
				TransportFailure.CONNECTION_REFUSED, TransportFailure.UNKNOWN_HOST, TransportFailure.IO_ERROR }) {
			table.put(PolicyKey.transport(failure), never(FAILURE, true));
		}
		table.put(PolicyKey.transport(TransportFailure.POOL_TIMEOUT), never(IGNORE, true));
		Rule readFailure = new Rule(2, Backoff.fixed(Duration.ofMillis(200)), RetryAfterMode.IGNORE, null, true, FAILURE,
				true, true);
		table.put(PolicyKey.transport(TransportFailure.READ_TIMEOUT), readFailure);
		table.put(PolicyKey.transport(TransportFailure.CONNECTION_RESET), readFailure);
		table.put(PolicyKey.UNKNOWN_STATUS, new Rule(3, SAFE_BACKOFF, HONOR, seconds(30), true, FAILURE, true, true));
		return Collections.unmodifiableMap(table);
	}

	private static Rule never(BreakerOutcome breaker, boolean alert) {
		return new Rule(1, SAFE_BACKOFF, RetryAfterMode.IGNORE, null, true, breaker, alert, true);
	}

	private static Backoff backoff(long initialMillis, double multiplier, long maxMillis, double jitter) {
		return new Backoff(Duration.ofMillis(initialMillis), multiplier, Duration.ofMillis(maxMillis), jitter);
	}

	private static Duration seconds(long seconds) {
		return Duration.ofSeconds(seconds);
	}

}
