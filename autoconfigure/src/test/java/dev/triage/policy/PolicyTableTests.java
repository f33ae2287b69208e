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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import dev.triage.TransportFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyTableTests {

	private final PolicyTable defaults = PolicyTable.defaults();

	@ParameterizedTest(name = "{0}: {1} attempts, breaker {2}, alert {3}, idempotent-only {4}")
	@CsvSource({ "300, 1, SUCCESS, false, true", "304, 1, SUCCESS, false, true", "400, 1, SUCCESS, false, true",
			"404, 1, SUCCESS, false, true", "408, 2, FAILURE, false, true", "429, 3, IGNORE, false, false",
			"498, 3, IGNORE, false, false", "499, 1, IGNORE, false, true", "500, 4, FAILURE, true, true",
			"501, 1, IGNORE, true, true", "502, 3, FAILURE, true, true", "503, 3, FAILURE, true, true",
			"504, 2, FAILURE, true, true", "505, 1, IGNORE, true, true", "507, 4, FAILURE, true, true",
			"599, 1, FAILURE, true, true", "520, 3, FAILURE, true, true", "460, 3, FAILURE, true, true",
			"418, 3, FAILURE, true, true", "999, 3, FAILURE, true, true" })
	void everyStatusRowMatchesTheReadmeTable(int status, int attempts, BreakerOutcome breaker, boolean alert,
			boolean idempotentOnly) {
		Rule rule = this.defaults.forStatus(status, null);
		assertThat(rule.maxAttempts()).isEqualTo(attempts);
		assertThat(rule.breaker()).isEqualTo(breaker);
		assertThat(rule.alert()).isEqualTo(alert);
		if (rule.retries()) {
			assertThat(rule.idempotentOnly()).isEqualTo(idempotentOnly);
		}
		assertThat(rule.fallback()).isTrue();
	}

	@ParameterizedTest(name = "{0}: {1} attempts, breaker {2}")
	@CsvSource({ "POOL_TIMEOUT, 1, IGNORE", "CONNECT_TIMEOUT, 1, FAILURE", "CONNECTION_REFUSED, 1, FAILURE",
			"UNKNOWN_HOST, 1, FAILURE", "IO_ERROR, 1, FAILURE", "READ_TIMEOUT, 2, FAILURE",
			"CONNECTION_RESET, 2, FAILURE" })
	void everyTransportRowMatchesTheReadmeTable(TransportFailure failure, int attempts, BreakerOutcome breaker) {
		Rule rule = this.defaults.forTransport(failure);
		assertThat(rule.maxAttempts()).isEqualTo(attempts);
		assertThat(rule.breaker()).isEqualTo(breaker);
		assertThat(rule.alert()).isTrue();
		if (rule.retries()) {
			assertThat(rule.idempotentOnly()).isTrue();
			assertThat(rule.backoff()).isEqualTo(Backoff.fixed(Duration.ofMillis(200)));
		}
	}

	@Test
	void backoffAndRetryAfterOfTheDefaultRows() {
		assertThat(this.defaults.forStatus(429, null).backoff())
			.isEqualTo(new Backoff(Duration.ofSeconds(2), 2, Duration.ofSeconds(30), 0.5));
		assertThat(this.defaults.forStatus(429, null).retryAfterMax()).isEqualTo(Duration.ofSeconds(60));
		assertThat(this.defaults.forStatus(503, null).backoff())
			.isEqualTo(new Backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(8), 0.5));
		assertThat(this.defaults.forStatus(502, null).backoff().max()).isEqualTo(Duration.ofSeconds(4));
		assertThat(this.defaults.forStatus(504, null).backoff()).isEqualTo(Backoff.fixed(Duration.ofSeconds(1)));
		assertThat(this.defaults.forStatus(500, null).backoff())
			.isEqualTo(new Backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(4), 0.5));
		assertThat(this.defaults.forStatus(500, null).retryAfterMax()).isEqualTo(Duration.ofSeconds(30));
		assertThat(this.defaults.forStatus(408, null).retryAfter()).isEqualTo(RetryAfterMode.HONOR);
		assertThat(this.defaults.forStatus(408, null).retryAfterMax()).isEqualTo(Duration.ofSeconds(30));
	}

	@ParameterizedTest(name = "{0}: pause {1}, overload {2}, failover {3}")
	@CsvSource({ "400, false, false, false", "404, false, false, false", "408, false, false, false",
			"429, true, true, false", "498, true, true, false", "499, false, false, false",
			"500, false, false, false", "501, false, false, false", "502, false, false, true",
			"503, true, true, true", "504, false, false, true", "599, false, false, true", "520, false, false, false" })
	void overloadFieldsOfTheStatusRows(int status, String pause, boolean overload, boolean failover) {
		Rule rule = this.defaults.forStatus(status, null);
		assertThat(rule.pause()).isEqualTo(pause.equals("true"));
		assertThat(rule.overload()).isEqualTo(overload);
		assertThat(rule.failover()).isEqualTo(failover);
	}

	@ParameterizedTest(name = "{0}: failover {1}")
	@CsvSource({ "POOL_TIMEOUT, false", "CONNECT_TIMEOUT, true", "CONNECTION_REFUSED, true", "UNKNOWN_HOST, true",
			"IO_ERROR, false", "READ_TIMEOUT, true", "CONNECTION_RESET, true" })
	void failoverOfTheTransportRows(TransportFailure failure, boolean failover) {
		Rule rule = this.defaults.forTransport(failure);
		assertThat(rule.failover()).isEqualTo(failover);
		assertThat(rule.pause()).isFalse();
		assertThat(rule.overload()).isFalse();
	}

	@Test
	void newFieldsLayerLikeTheOthers() {
		PolicyTable table = PolicyTable.builder()
			.global(PolicyKey.status(503), RuleOverride.builder().set(RuleField.PAUSE, false).build())
			.client(PolicyKey.statusClass(5), RuleOverride.builder().set(RuleField.FAILOVER, true).build())
			.client(PolicyKey.status(429), RuleOverride.builder().set(RuleField.OVERLOAD, false).build())
			.build();
		assertThat(table.forStatus(503, null).pause()).isFalse();
		assertThat(table.forStatus(503, null).overload()).as("inherited from the default row").isTrue();
		assertThat(table.forStatus(500, null).failover()).isTrue();
		assertThat(table.forStatus(429, null).overload()).isFalse();
		assertThat(table.forStatus(429, null).pause()).isTrue();
		assertThat(table.explain(PolicyKey.status(503)).sources()).containsEntry("pause", "global")
			.containsEntry("overload", "default")
			.containsEntry("failover", "default");
		assertThatThrownBy(() -> RuleOverride.builder().set(RuleField.PAUSE, "maybe").build().validate("p"))
			.hasMessageContaining("pause");
	}

	@Test
	void nonStandardCodesResolveToUnknownStatusUnlessTheyHaveAnExactKey() {
		assertThat(this.defaults.keyFor(520)).isEqualTo(PolicyKey.UNKNOWN_STATUS);
		assertThat(this.defaults.keyFor(460)).isEqualTo(PolicyKey.UNKNOWN_STATUS);
		assertThat(this.defaults.keyFor(418)).isEqualTo(PolicyKey.UNKNOWN_STATUS);
		assertThat(this.defaults.keyFor(498)).isEqualTo(PolicyKey.status(498));
		assertThat(this.defaults.keyFor(599)).isEqualTo(PolicyKey.status(599));
		assertThat(this.defaults.keyFor(500)).isEqualTo(PolicyKey.statusClass(5));
		assertThat(this.defaults.forStatus(600, null)).isEqualTo(this.defaults.forStatus(520, null));
		assertThat(this.defaults.forStatus(42, null)).isEqualTo(this.defaults.forStatus(520, null));
	}

	@Test
	void clientLayerBeatsGlobalLayerBeatsDefaultsFieldByField() {
		PolicyTable table = PolicyTable.builder()
			.global(PolicyKey.status(503), override(5, null, null))
			.client(PolicyKey.status(503), override(null, BreakerOutcome.IGNORE, null))
			.build();

		Rule rule = table.forStatus(503, null);

		assertThat(rule.maxAttempts()).as("from global").isEqualTo(5);
		assertThat(rule.breaker()).as("from client").isEqualTo(BreakerOutcome.IGNORE);
		assertThat(rule.backoff().max()).as("from default").isEqualTo(Duration.ofSeconds(8));
		assertThat(rule.retryAfterMax()).as("from default").isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void aClassOverrideDoesNotReachStatusesThatHaveTheirOwnRow() {
		PolicyTable table = PolicyTable.builder().global(PolicyKey.statusClass(5), override(7, null, null)).build();

		assertThat(table.forStatus(500, null).maxAttempts()).isEqualTo(7);
		assertThat(table.forStatus(503, null).maxAttempts()).isEqualTo(3);
		assertThat(table.forStatus(520, null).maxAttempts()).as("unknown codes are not in a class").isEqualTo(3);
	}

	@Test
	void anExactKeyWithoutADefaultRowInheritsFromItsClass() {
		PolicyTable table = PolicyTable.builder().client(PolicyKey.status(409), override(2, null, null)).build();

		Rule rule = table.forStatus(409, null);

		assertThat(rule.maxAttempts()).isEqualTo(2);
		assertThat(rule.breaker()).as("inherited from 4xx").isEqualTo(BreakerOutcome.SUCCESS);
		assertThat(table.forStatus(410, null).maxAttempts()).isEqualTo(1);
	}

	@Test
	void anExactKeyForANonStandardCodeInheritsFromUnknownStatus() {
		PolicyTable table = PolicyTable.builder().global(PolicyKey.status(520), override(null, BreakerOutcome.IGNORE, null)).build();

		Rule rule = table.forStatus(520, null);

		assertThat(rule.breaker()).isEqualTo(BreakerOutcome.IGNORE);
		assertThat(rule.maxAttempts()).isEqualTo(3);
		assertThat(table.keyFor(520)).isEqualTo(PolicyKey.status(520));
	}

	@Test
	void unknownStatusOverrideReachesEveryNonStandardCodeButNotRegisteredOnes() {
		PolicyTable table = PolicyTable.builder().global(PolicyKey.UNKNOWN_STATUS, override(1, null, null)).build();

		assertThat(table.forStatus(520, null).maxAttempts()).isEqualTo(1);
		assertThat(table.forStatus(530, null).maxAttempts()).isEqualTo(1);
		assertThat(table.forStatus(500, null).maxAttempts()).isEqualTo(4);
		assertThat(table.forStatus(498, null).maxAttempts()).isEqualTo(3);
	}

	@Test
	void errorTypeBeatsStatusAndInheritsTheRestFromTheStatusRule() {
		PolicyTable table = PolicyTable.builder()
			.globalErrorType("invalid_request_error", override(1, BreakerOutcome.SUCCESS, null))
			.clientErrorType("overloaded_error", override(null, BreakerOutcome.IGNORE, null))
			.build();

		Rule invalid = table.forStatus(503, "invalid_request_error");
		Rule overloaded = table.forStatus(503, "overloaded_error");

		assertThat(invalid.maxAttempts()).isEqualTo(1);
		assertThat(invalid.breaker()).isEqualTo(BreakerOutcome.SUCCESS);
		assertThat(overloaded.maxAttempts()).as("inherited from 503").isEqualTo(3);
		assertThat(overloaded.breaker()).isEqualTo(BreakerOutcome.IGNORE);
		assertThat(overloaded.backoff().max()).isEqualTo(Duration.ofSeconds(8));
		assertThat(table.forStatus(503, "something_else")).isEqualTo(table.forStatus(503, null));
	}

	@Test
	void clientErrorTypeBeatsGlobalErrorTypeFieldByField() {
		PolicyTable table = PolicyTable.builder()
			.globalErrorType("overloaded_error", override(5, BreakerOutcome.IGNORE, null))
			.clientErrorType("overloaded_error", override(2, null, null))
			.build();

		Rule rule = table.forStatus(529, "overloaded_error");

		assertThat(rule.maxAttempts()).isEqualTo(2);
		assertThat(rule.breaker()).isEqualTo(BreakerOutcome.IGNORE);
	}

	@Test
	void backoffFieldsInheritIndividually() {
		RuleOverride onlyInitial = RuleOverride.builder()
			.set(RuleField.BACKOFF_INITIAL, Duration.ofMillis(50))
			.set(RuleField.BACKOFF_JITTER, 0.0)
			.build();
		PolicyTable table = PolicyTable.builder().global(PolicyKey.status(503), onlyInitial).build();

		Backoff backoff = table.forStatus(503, null).backoff();

		assertThat(backoff.initial()).isEqualTo(Duration.ofMillis(50));
		assertThat(backoff.multiplier()).isEqualTo(2.0);
		assertThat(backoff.max()).isEqualTo(Duration.ofSeconds(8));
		assertThat(backoff.jitter()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "5xy", "6xx", "2xx", "abc", "50", "5000", "", "read_timeout", "099" })
	void malformedKeysAreRejectedNamingTheProperty(String key) {
		assertThatThrownBy(() -> PolicyKey.parse("triage.policies." + key, key))
			.isInstanceOf(InvalidPolicyException.class)
			.hasMessageContaining("triage.policies." + key)
			.hasMessageContaining("unknown-status");
	}

	@Test
	void keysParseToTheirKinds() {
		assertThat(PolicyKey.parse("p", "503")).isEqualTo(PolicyKey.status(503));
		assertThat(PolicyKey.parse("p", "4xx")).isEqualTo(PolicyKey.statusClass(4));
		assertThat(PolicyKey.parse("p", "read-timeout")).isEqualTo(PolicyKey.transport(TransportFailure.READ_TIMEOUT));
		assertThat(PolicyKey.parse("p", "unknown-status")).isEqualTo(PolicyKey.UNKNOWN_STATUS);
		assertThat(PolicyKey.parse("p", "5xx").toString()).isEqualTo("5xx");
	}

	@Test
	void badRuleValuesAreRejectedNamingPropertyValueAndAllowedValues() {
		assertThatThrownBy(() -> override(0, null, null).validate("triage.policies.503"))
			.isInstanceOf(InvalidPolicyException.class)
			.hasMessageContaining("triage.policies.503.max-attempts")
			.hasMessageContaining("'0'")
			.hasMessageContaining("at least 1");
		assertThatThrownBy(() -> RuleOverride.builder().set(RuleField.BACKOFF_JITTER, 1.5).build()
			.validate("triage.policies.5xx")).hasMessageContaining("triage.policies.5xx.backoff.jitter")
			.hasMessageContaining("1.5")
			.hasMessageContaining("from 0 to 1");
		assertThatThrownBy(() -> RuleOverride.builder().set(RuleField.BACKOFF_INITIAL, Duration.ofMillis(-5)).build()
			.validate("triage.policies.429")).hasMessageContaining("triage.policies.429.backoff.initial");
		assertThatThrownBy(() -> RuleOverride.builder().set(RuleField.BACKOFF_MULTIPLIER, 0.5).build()
			.validate("triage.policies.429")).hasMessageContaining("backoff.multiplier");
		assertThatThrownBy(() -> RuleOverride.builder().set(RuleField.RETRY_AFTER_MAX, Duration.ofSeconds(-1)).build()
			.validate("triage.policies.429")).hasMessageContaining("triage.policies.429.retry-after-max");
	}

	@Test
	void explainGivesTheResolvedRuleAndTheLayerOfEveryField() {
		PolicyTable table = PolicyTable.builder()
			.global(PolicyKey.statusClass(4), override(null, null, true))
			.global(PolicyKey.status(503), override(5, null, null))
			.client(PolicyKey.status(503), override(null, BreakerOutcome.IGNORE, null))
			.client(PolicyKey.status(409), override(2, null, null))
			.build();

		ExplainedRule rule503 = table.explain(PolicyKey.status(503));
		ExplainedRule rule409 = table.explain(PolicyKey.status(409));

		assertThat(rule503.rule()).isEqualTo(table.forStatus(503, null));
		assertThat(rule503.sources()).containsEntry("max-attempts", "global")
			.containsEntry("breaker", "client")
			.containsEntry("backoff.max", "default");
		assertThat(rule503.sources()).hasSize(RuleField.values().length);
		assertThat(rule409.rule()).isEqualTo(table.forStatus(409, null));
		assertThat(rule409.sources()).containsEntry("max-attempts", "client")
			.containsEntry("alert", "global")
			.containsEntry("breaker", "default");
		assertThat(table.keys()).contains(PolicyKey.status(409), PolicyKey.UNKNOWN_STATUS,
				PolicyKey.transport(TransportFailure.POOL_TIMEOUT));
		for (PolicyKey key : table.keys()) {
			if (key.kind() == PolicyKey.Kind.STATUS) {
				assertThat(table.explain(key).rule()).isEqualTo(table.forStatus(key.status(), null));
			}
		}
	}

	private static RuleOverride override(Integer maxAttempts, BreakerOutcome breaker, Boolean alert) {
		return RuleOverride.builder()
			.set(RuleField.MAX_ATTEMPTS, maxAttempts)
			.set(RuleField.BREAKER, breaker)
			.set(RuleField.ALERT, alert)
			.build();
	}

}
