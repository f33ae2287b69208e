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

package dev.triage.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.triage.AttemptOutcome;
import dev.triage.FailureClass;
import dev.triage.TransportFailure;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.Rule;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * An attempt's meter is found without building its key for the commonest outcomes; the tags must still be those
 * of the attempt's own rule, status, class and channel, whatever came before (an error type with a rule of its
 * own, a reload's new rules).
 */
class AttemptMetersTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final TriageMetrics metrics = new TriageMetrics();

	AttemptMetersTests() {
		this.metrics.bindTo(this.registry);
	}

	@Test
	void aStatusCountsUnderTheBreakerTagOfTheRuleThatDecidedEachAttempt() {
		Rule notFound = Rule.builder().breaker(BreakerOutcome.IGNORE).build();
		Rule quota = Rule.builder().breaker(BreakerOutcome.FAILURE).build();

		answered(404, notFound, "primary");
		answered(404, notFound, "primary");
		answered(404, quota, "primary");
		answered(404, notFound, "primary");
		answered(404, notFound, "backup");

		assertThat(count("404", "ignore", "primary")).isEqualTo(3);
		assertThat(count("404", "failure", "primary")).isEqualTo(1);
		assertThat(count("404", "ignore", "backup")).isEqualTo(1);
	}

	@Test
	void aReloadedRuleWithAnotherBreakerTagCountsUnderItsOwnTag() {
		Rule before = Rule.builder().breaker(BreakerOutcome.FAILURE).build();
		Rule after = before.toBuilder().breaker(BreakerOutcome.IGNORE).build();

		answered(503, before, "primary");
		answered(503, after, "primary");
		answered(503, after, "primary");

		assertThat(count("503", "failure", "primary")).isEqualTo(1);
		assertThat(count("503", "ignore", "primary")).isEqualTo(2);
	}

	@Test
	void aTransportFailureAndANonStandardStatusCountUnderTheirOwnTags() {
		Rule timeout = Rule.builder().breaker(BreakerOutcome.FAILURE).build();
		this.metrics.onAttempt(new AttemptOutcome("inventory", 0, TransportFailure.READ_TIMEOUT, FailureClass.TRANSPORT,
				timeout, 1_000_000, "primary"));
		this.metrics.onAttempt(new AttemptOutcome("inventory", 599, null, FailureClass.NONSTANDARD, timeout,
				1_000_000, "primary"));
		this.metrics.onAttempt(new AttemptOutcome("inventory", 599, null, FailureClass.NONSTANDARD, timeout,
				1_000_000, "primary"));

		assertThat(this.registry.get("triage.attempts").tag("code", TransportFailure.READ_TIMEOUT.key())
			.tag("class", "transport").counter().count()).isEqualTo(1);
		assertThat(this.registry.get("triage.attempts").tag("code", "599").tag("class", "nonstandard").counter().count())
			.isEqualTo(2);
	}

	private void answered(int status, Rule rule, String channel) {
		this.metrics.onAttempt(new AttemptOutcome("inventory", status, null,
				(status < 500) ? FailureClass.CLIENT_ERROR_4XX : FailureClass.SERVER_ERROR_5XX, rule, 1_000_000, channel));
	}

	private double count(String code, String breaker, String channel) {
		return this.registry.get("triage.attempts")
			.tag("client", "inventory")
			.tag("code", code)
			.tag("breaker", breaker)
			.tag("channel", channel)
			.counter()
			.count();
	}

}
