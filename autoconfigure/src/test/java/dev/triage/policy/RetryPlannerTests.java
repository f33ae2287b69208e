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

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPlannerTests {

	private final PolicyTable table = PolicyTable.defaults();

	private final RetryPlanner middle = new RetryPlanner(() -> 0.5);

	@Test
	void retriesUntilMaxAttemptsThenStopsWithoutASuppressionReason() {
		Rule rule = this.table.forStatus(500, null);
		assertThat(this.middle.decide(rule, 1, true, Optional.empty(), Duration.ZERO, null).retry()).isTrue();
		assertThat(this.middle.decide(rule, 2, true, Optional.empty(), Duration.ZERO, null).retry()).isTrue();
		assertThat(this.middle.decide(rule, 3, true, Optional.empty(), Duration.ZERO, null).retry()).isTrue();
		RetryDecision last = this.middle.decide(rule, 4, true, Optional.empty(), Duration.ZERO, null);
		assertThat(last.retry()).isFalse();
		assertThat(last.suppressed()).isNull();
	}

	@Test
	void backoffGrowsExponentiallyAndIsCappedBeforeJitter() {
		Rule rule = RuleOverride.builder().set(RuleField.MAX_ATTEMPTS, 5).build().applyTo(this.table.forStatus(429, null));
		assertThat(delay(this.middle, rule, 1)).isEqualTo(Duration.ofSeconds(2));
		assertThat(delay(this.middle, rule, 2)).isEqualTo(Duration.ofSeconds(4));
		assertThat(delay(this.middle, rule, 3)).isEqualTo(Duration.ofSeconds(8));
		Rule long503 = RuleOverride.builder().set(RuleField.MAX_ATTEMPTS, 20).build()
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
			assertThat(delay(random, rule, 1)).isBetween(Duration.ofMillis(500), Duration.ofMillis(1_500));
		}
	}

	@Test
	void nonIdempotentRequestsAreNotRetriedWhenTheRuleSaysSo() {
		RetryDecision decision = this.middle.decide(this.table.forStatus(500, null), 1, false, Optional.empty(),
				Duration.ZERO, null);
		assertThat(decision.retry()).isFalse();
		assertThat(decision.suppressed()).isEqualTo(RetryDecision.Suppression.NOT_IDEMPOTENT);
		assertThat(this.middle.decide(this.table.forStatus(503, null), 1, false, Optional.empty(), Duration.ZERO, null)
			.suppressed()).as("a POST answered 503 is tried once").isEqualTo(RetryDecision.Suppression.NOT_IDEMPOTENT);
		assertThat(this.middle.decide(this.table.forStatus(429, null), 1, false, Optional.empty(), Duration.ZERO, null)
			.retry()).as("a rate limiter rejects before doing any work").isTrue();
	}

	@Test
	void writesAreNotIdempotentByDefaultUnlessTheyCarryAnIdempotencyKey() {
		assertThat(this.middle.isIdempotent("GET", false)).isTrue();
		assertThat(this.middle.isIdempotent("HEAD", false)).isTrue();
		assertThat(this.middle.isIdempotent("PUT", false)).isFalse();
		assertThat(this.middle.isIdempotent("DELETE", false)).isFalse();
		assertThat(this.middle.isIdempotent("POST", false)).isFalse();
		assertThat(this.middle.isIdempotent("PATCH", false)).isFalse();
		assertThat(this.middle.isIdempotent("POST", true)).isTrue();
		assertThat(this.middle.isIdempotent("PUT", true)).isTrue();
	}

	@Test
	void putAndDeleteCanBeOptedIn() {
		RetryPlanner planner = new RetryPlanner(() -> 0.5, Set.of("get", "PUT ", "delete"));
		assertThat(planner.isIdempotent("PUT", false)).isTrue();
		assertThat(planner.isIdempotent("DELETE", false)).isTrue();
		assertThat(planner.isIdempotent("GET", false)).isTrue();
		assertThat(planner.isIdempotent("HEAD", false)).isFalse();
		assertThat(planner.isIdempotent("POST", false)).isFalse();
	}

	@Test
	void honoredRetryAfterIsNeverShorterThanAskedAndJitteredUpToJitterTimesIt() {
		Rule rule = this.table.forStatus(429, null);
		Optional<Duration> seven = Optional.of(Duration.ofSeconds(7));
		assertThat(new RetryPlanner(() -> 0.0).decide(rule, 1, true, seven, Duration.ZERO, null).delay())
			.isEqualTo(Duration.ofSeconds(7));
		assertThat(this.middle.decide(rule, 1, true, seven, Duration.ZERO, null).delay())
			.as("jitter 0.5, draw 0.5: 7s + 25%").isEqualTo(Duration.ofMillis(8_750));
		assertThat(new RetryPlanner(() -> 0.999999).decide(rule, 1, true, Optional.of(Duration.ofSeconds(2)),
				Duration.ZERO, null).delay()).isBetween(Duration.ofMillis(2_999), Duration.ofSeconds(3));
	}

	@Test
	void jitteredRetryAfterIsCappedAtBackoffMaxButNeverBelowTheAskedValue() {
		Rule rule = this.table.forStatus(503, null);
		RetryPlanner high = new RetryPlanner(() -> 0.999999);
		assertThat(high.decide(rule, 1, true, Optional.of(Duration.ofSeconds(6)), Duration.ZERO, null).delay())
			.as("6s + up to 3s, capped at the 8s backoff.max").isEqualTo(Duration.ofSeconds(8));
		assertThat(high.decide(rule, 1, true, Optional.of(Duration.ofSeconds(30)), Duration.ZERO, null).delay())
			.as("asked for more than backoff.max: exactly what was asked").isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void retryAfterWaitsSpreadAcrossCallers() {
		Rule rule = this.table.forStatus(429, null);
		RetryPlanner random = new RetryPlanner(Math::random);
		Set<Duration> waits = new HashSet<>();
		for (int i = 0; i < 20; i++) {
			Duration wait = random.decide(rule, 1, true, Optional.of(Duration.ofSeconds(2)), Duration.ZERO, null)
				.delay();
			assertThat(wait).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
			waits.add(wait);
		}
		assertThat(waits).as("20 callers given the same Retry-After").hasSizeGreaterThan(10);
	}

	@ParameterizedTest
	@ValueSource(strings = { "31536001", "9999999999999999", "9223372036854775807", "Fri, 31 Dec 9999 23:59:59 GMT" })
	void retryAfterTooLargeToRepresentFailsFast(String header) {
		Optional<Duration> parsed = RetryAfter.parse(header, Clock.systemUTC());
		assertThat(parsed).isPresent();
		for (int status : new int[] { 429, 503, 408 }) {
			RetryDecision decision = this.middle.decide(this.table.forStatus(status, null), 1, true, parsed,
					Duration.ZERO, null);
			assertThat(decision.retry()).as("status " + status).isFalse();
			assertThat(decision.suppressed()).isEqualTo(RetryDecision.Suppression.RETRY_AFTER_TOO_LONG);
		}
		Rule unlimited = RuleOverride.builder().set(RuleField.MAX_ATTEMPTS, 3).build()
			.applyTo(Rule.builder().honorRetryAfter(null).build());
		assertThat(this.middle.decide(unlimited, 1, true, parsed, Duration.ZERO, null).suppressed())
			.as("even without retry-after-max").isEqualTo(RetryDecision.Suppression.RETRY_AFTER_TOO_LONG);
	}

	@Test
	void ignoredRetryAfterUsesTheBackoff() {
		Rule ignoring = RuleOverride.builder().set(RuleField.RETRY_AFTER, RetryAfterMode.IGNORE).build()
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
	void noRetryWhoseWaitLeavesItTooLittleOfTheDeadlineToRun() {
		Rule rule = this.table.forStatus(503, null);
		// No jitter: the wait is what Retry-After asks.
		RetryPlanner exact = new RetryPlanner(() -> 0.0);
		// 1500 ms spent, a 1495 ms wait: 5 ms of the 3 s deadline would be left for the attempt.
		assertThat(exact
			.decide(rule, 1, true, Optional.of(Duration.ofMillis(1495)), Duration.ofMillis(1500), Duration.ofSeconds(3))
			.suppressed()).isEqualTo(RetryDecision.Suppression.DEADLINE);
		assertThat(exact
			.decide(rule, 1, true, Optional.of(Duration.ofMillis(1480)), Duration.ofMillis(1500), Duration.ofSeconds(3))
			.retry()).isTrue();
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
	void rfc850TwoDigitYearIsAtMostFiftyYearsAheadOfTheClock() {
		Clock clock2026 = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse("Sunday, 29-Nov-76 12:00:00 GMT", clock2026)).as("2076: fifty years ahead")
			.contains(RetryAfter.BEYOND_LIMIT);
		assertThat(RetryAfter.parse("Tuesday, 29-Nov-77 12:00:00 GMT", clock2026)).as("1977, in the past").isEmpty();
		Clock clock2069 = Clock.fixed(Instant.parse("2069-12-31T23:59:50Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse("Wednesday, 01-Jan-70 00:00:10 GMT", clock2069)).as("2070, not 1970")
			.contains(Duration.ofSeconds(20));
		Clock clock2099 = Clock.fixed(Instant.parse("2099-12-31T23:59:50Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse("Friday, 01-Jan-00 00:00:30 GMT", clock2099)).as("2100, not 2000")
			.contains(Duration.ofSeconds(40));
	}

	@Test
	void aDateRetryAfterMeasuredFromASubMillisecondClockIsNotWaitedForLess() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00.000500Z"), ZoneOffset.UTC);
		Optional<Duration> asked = RetryAfter.parse("Sun, 29 Nov 2026 12:00:18 GMT", clock);
		assertThat(asked).contains(Duration.ofMillis(17_999).plusNanos(500_000));
		Duration wait = new RetryPlanner(() -> 0.0).decide(this.table.forStatus(503, null), 1, true, asked,
				Duration.ZERO, null).delay();
		assertThat(wait).as("the 18s asked, not 17.999s").isEqualTo(Duration.ofSeconds(18));
	}

	@Test
	void retryAfterWithLeadingZerosIsTheSecondsItSays() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse("0000000000002", clock)).contains(Duration.ofSeconds(2));
		assertThat(RetryAfter.parse("00000000000000000000000000120", clock)).contains(Duration.ofSeconds(120));
		assertThat(RetryAfter.parse("0000000000000", clock)).contains(Duration.ZERO);
		assertThat(RetryAfter.parse("000000000000099999999999999999", clock)).as("well-formed, too large")
			.contains(RetryAfter.BEYOND_LIMIT);
	}

	@Test
	void retryAfterIgnoresMalformedNegativeAndPastValues() {
		Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
		assertThat(RetryAfter.parse(null, clock)).isEmpty();
		assertThat(RetryAfter.parse("", clock)).isEmpty();
		assertThat(RetryAfter.parse("-5", clock)).isEmpty();
		assertThat(RetryAfter.parse("1.5", clock)).isEmpty();
		assertThat(RetryAfter.parse("soon", clock)).isEmpty();
		assertThat(RetryAfter.parse("99999999999999999999", clock)).as("well-formed, too large")
			.contains(RetryAfter.BEYOND_LIMIT);
		assertThat(RetryAfter.parse("999999999", clock)).as("more than a year").contains(RetryAfter.BEYOND_LIMIT);
		assertThat(RetryAfter.parse("31536000", clock)).as("exactly a year").contains(Duration.ofDays(365));
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 11:59:00 GMT", clock)).as("in the past").isEmpty();
	}

	private static Duration delay(RetryPlanner planner, Rule rule, int attemptsMade) {
		return planner.decide(rule, attemptsMade, true, Optional.empty(), Duration.ZERO, null).delay();
	}

}
