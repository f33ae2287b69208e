package dev.triage.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RetryPlannerTests {

	private final PolicyTable table = PolicyTable.defaults();

	private final RetryPlanner middle = new RetryPlanner(() -> 0.5);

	@Test
	void retriesUntilMaxAttemptsThenStopsWithoutASuppressionReason() {
		Rule rule = this.table.forStatus(500, null);
		assertThat(this.middle.decide(rule, 1, true, Optional.empty(), Duration.ZERO, null).retry()).isTrue();
		assertThat(this.middle.decide(rule, 2, true, Optional.empty(), Duration.ZERO, null).retry()).isTrue();
		RetryDecision last = this.middle.decide(rule, 3, true, Optional.empty(), Duration.ZERO, null);
		assertThat(last.retry()).isFalse();
		assertThat(last.suppressed()).isNull();
	}

	@Test
	void backoffGrowsExponentiallyAndIsCappedBeforeJitter() {
		Rule rule = this.table.forStatus(429, null);
		assertThat(delay(this.middle, rule, 1)).isEqualTo(Duration.ofSeconds(1));
		assertThat(delay(this.middle, rule, 2)).isEqualTo(Duration.ofSeconds(2));
		assertThat(delay(this.middle, rule, 3)).isEqualTo(Duration.ofSeconds(4));
		Rule long503 = new RuleOverride(20, null, null, null, null, null, null, null, null, null, null)
			.applyTo(this.table.forStatus(503, null));
		assertThat(delay(this.middle, long503, 10)).isEqualTo(Duration.ofSeconds(8));
		assertThat(delay(new RetryPlanner(() -> 0.0), long503, 10)).isEqualTo(Duration.ofSeconds(4));
		assertThat(delay(new RetryPlanner(() -> 0.999999), long503, 10)).isBetween(Duration.ofMillis(11_999),
				Duration.ofSeconds(12));
	}

	@Test
	void jitterStaysWithinItsBand() {
		Rule rule = this.table.forStatus(500, null);
		RetryPlanner random = new RetryPlanner(Math::random);
		for (int i = 0; i < 1000; i++) {
			assertThat(delay(random, rule, 1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(300));
		}
	}

	@Test
	void nonIdempotentRequestsAreNotRetriedWhenTheRuleSaysSo() {
		RetryDecision decision = this.middle.decide(this.table.forStatus(500, null), 1, false, Optional.empty(),
				Duration.ZERO, null);
		assertThat(decision.retry()).isFalse();
		assertThat(decision.suppressed()).isEqualTo(RetryDecision.Suppression.NOT_IDEMPOTENT);
		assertThat(this.middle.decide(this.table.forStatus(503, null), 1, false, Optional.empty(), Duration.ZERO, null)
			.retry()).as("503 says the server did nothing").isTrue();
	}

	@Test
	void idempotencyComesFromTheMethodOrAnIdempotencyKey() {
		assertThat(RetryPlanner.isIdempotent("GET", false)).isTrue();
		assertThat(RetryPlanner.isIdempotent("PUT", false)).isTrue();
		assertThat(RetryPlanner.isIdempotent("DELETE", false)).isTrue();
		assertThat(RetryPlanner.isIdempotent("POST", false)).isFalse();
		assertThat(RetryPlanner.isIdempotent("PATCH", false)).isFalse();
		assertThat(RetryPlanner.isIdempotent("POST", true)).isTrue();
	}

	@Test
	void honoredRetryAfterIsTheExactWait() {
		RetryDecision decision = this.middle.decide(this.table.forStatus(503, null), 1, true,
				Optional.of(Duration.ofSeconds(7)), Duration.ZERO, null);
		assertThat(decision.delay()).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void ignoredRetryAfterUsesTheBackoff() {
		Rule ignoring = new RuleOverride(null, null, null, null, null, RetryAfterMode.IGNORE, null, null, null, null,
				null)
			.applyTo(this.table.forStatus(503, null));
		RetryDecision decision = this.middle.decide(ignoring, 1, true, Optional.of(Duration.ofSeconds(7)), Duration.ZERO,
				null);
		assertThat(decision.delay()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void retryAfterAboveTheMaximumFailsFast() {
		RetryDecision decision = this.middle.decide(this.table.forStatus(429, null), 1, true,
				Optional.of(Duration.ofSeconds(61)), Duration.ZERO, null);
		assertThat(decision.retry()).isFalse();
		assertThat(decision.suppressed()).isEqualTo(RetryDecision.Suppression.RETRY_AFTER_TOO_LONG);
	}

	@Test
	void noRetryWhoseWaitWouldCrossTheDeadline() {
		Rule rule = this.table.forStatus(503, null);
		RetryDecision crossing = this.middle.decide(rule, 1, true, Optional.of(Duration.ofSeconds(2)),
				Duration.ofMillis(1500), Duration.ofSeconds(3));
		assertThat(crossing.suppressed()).isEqualTo(RetryDecision.Suppression.DEADLINE);
		assertThat(this.middle.decide(rule, 1, true, Optional.of(Duration.ofSeconds(1)), Duration.ofMillis(1500),
				Duration.ofSeconds(3)).retry()).isTrue();
	}

	@Test
	void retryAfterParsesSecondsAndHttpDates() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse("120", clock)).contains(Duration.ofSeconds(120));
		assertThat(RetryAfter.parse(" 0 ", clock)).contains(Duration.ZERO);
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 12:00:30 GMT", clock)).contains(Duration.ofSeconds(30));
		assertThat(RetryAfter.parse("Sunday, 29-Nov-26 12:00:40 GMT", clock)).contains(Duration.ofSeconds(40));
		assertThat(RetryAfter.parse("Sun Nov 29 12:00:50 2026", clock)).contains(Duration.ofSeconds(50));
		assertThat(RetryAfter.parse("Sun Nov  1 12:00:00 2026", clock)).as("in the past").isEmpty();
	}

	@Test
	void retryAfterIgnoresMalformedNegativePastAndOverflowingValues() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse(null, clock)).isEmpty();
		assertThat(RetryAfter.parse("", clock)).isEmpty();
		assertThat(RetryAfter.parse("-5", clock)).isEmpty();
		assertThat(RetryAfter.parse("1.5", clock)).isEmpty();
		assertThat(RetryAfter.parse("soon", clock)).isEmpty();
		assertThat(RetryAfter.parse("99999999999999999999", clock)).isEmpty();
		assertThat(RetryAfter.parse("999999999", clock)).as("more than a year").isEmpty();
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 11:59:00 GMT", clock)).as("in the past").isEmpty();
	}

	private static Duration delay(RetryPlanner planner, Rule rule, int attemptsMade) {
		return planner.decide(rule, attemptsMade, true, Optional.empty(), Duration.ZERO, null).delay();
	}

}
