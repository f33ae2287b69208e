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

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The built-in table, row by row as SPEC §3 and §8 write it. A dash is a field the SPEC leaves to the row's
 * safe default (a row that never retries).
 */
class DefaultPoliciesTests {

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', nullValues = "-", value = {
			// key | attempts | initial | ×mult | max | jitter | Retry-After max (honor) | idempotent-only | breaker | alert | failover | pause | overload
			"3xx | 1 | - | - | - | - | - | - | SUCCESS | false | false | false | false",
			"4xx | 1 | - | - | - | - | - | - | SUCCESS | false | false | false | false",
			"408 | 2 | 200ms | 2 | 1s | 0.5 | 30s | true | FAILURE | false | false | false | false",
			"429 | 3 | 2s | 2 | 30s | 0.5 | 60s | false | IGNORE | false | false | true | true",
			"498 | 3 | 1s | 2 | 30s | 0.5 | 60s | false | IGNORE | false | false | true | true",
			"499 | 1 | - | - | - | - | - | - | IGNORE | false | false | false | false",
			"5xx | 4 | 1s | 2 | 4s | 0.5 | 30s | true | FAILURE | true | false | false | false",
			"501 | 1 | - | - | - | - | - | - | IGNORE | true | false | false | false",
			"505 | 1 | - | - | - | - | - | - | IGNORE | true | false | false | false",
			"502 | 3 | 1s | 2 | 4s | 0.5 | 30s | true | FAILURE | true | true | false | false",
			"503 | 3 | 1s | 2 | 8s | 0.5 | 60s | true | FAILURE | true | true | true | true",
			"504 | 2 | 1s | 1 | 1s | 0 | 30s | true | FAILURE | true | true | false | false",
			"599 | 1 | - | - | - | - | - | - | FAILURE | true | true | false | false",
			"connect-timeout | 1 | - | - | - | - | - | false | FAILURE | true | true | false | false",
			"connection-refused | 1 | - | - | - | - | - | false | FAILURE | true | true | false | false",
			"unknown-host | 1 | - | - | - | - | - | false | FAILURE | true | true | false | false",
			"io-error | 1 | - | - | - | - | - | - | FAILURE | true | false | false | false",
			"pool-timeout | 1 | - | - | - | - | - | false | IGNORE | true | false | false | false",
			"read-timeout | 2 | 200ms | 1 | 200ms | 0 | - | true | FAILURE | true | true | false | false",
			"connection-reset | 2 | 200ms | 1 | 200ms | 0 | - | true | FAILURE | true | true | false | false",
			"unknown-status | 3 | 200ms | 2 | 2s | 0.5 | 30s | true | FAILURE | true | false | false | false" })
	void eachRowIsTheSpecs(String key, int attempts, String initial, Double multiplier, String max, Double jitter,
			String retryAfterMax, Boolean idempotentOnly, BreakerOutcome breaker, boolean alert, boolean failover,
			boolean pause, boolean overload) {
		Rule rule = DefaultPolicies.table().get(PolicyKey.parse("triage.policies." + key, key));

		assertThat(rule).as(key).isNotNull();
		assertThat(rule.maxAttempts()).as("attempts").isEqualTo(attempts);
		if (initial != null) {
			assertThat(rule.backoff().initial()).as("initial").isEqualTo(duration(initial));
			assertThat(rule.backoff().multiplier()).as("multiplier").isEqualTo(multiplier);
			assertThat(rule.backoff().max()).as("max").isEqualTo(duration(max));
			assertThat(rule.backoff().jitter()).as("jitter").isEqualTo(jitter);
		}
		if (retryAfterMax != null) {
			assertThat(rule.retryAfter()).as("retry-after").isEqualTo(RetryAfterMode.HONOR);
			assertThat(rule.retryAfterMax()).as("retry-after-max").isEqualTo(duration(retryAfterMax));
		}
		if (idempotentOnly != null) {
			assertThat(rule.idempotentOnly()).as("idempotent-only").isEqualTo(idempotentOnly);
		}
		assertThat(rule.breaker()).as("breaker").isEqualTo(breaker);
		assertThat(rule.alert()).as("alert").isEqualTo(alert);
		assertThat(rule.fallback()).as("fallback").isTrue();
		assertThat(rule.failover()).as("failover").isEqualTo(failover);
		assertThat(rule.pause()).as("pause").isEqualTo(pause);
		assertThat(rule.overload()).as("overload").isEqualTo(overload);
	}

	private static Duration duration(String text) {
		return text.endsWith("ms") ? Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)))
				: Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
	}

}
