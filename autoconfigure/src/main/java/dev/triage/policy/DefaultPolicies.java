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

import static dev.triage.policy.BreakerOutcome.FAILURE;
import static dev.triage.policy.BreakerOutcome.IGNORE;
import static dev.triage.policy.BreakerOutcome.SUCCESS;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.triage.TransportFailure;

/**
 * The built-in policy table: the one place the defaults of docs/policy-table.md's table are written down.
 * <p>
 * Every row starts from {@link Rule#builder()}: rows that never retry still carry safe values for the retry
 * fields (a 200ms ×2 → 2s backoff with ±50% jitter, {@code Retry-After} ignored, idempotent requests only), so
 * that a user who raises only {@code max-attempts} on such a row gets a cautious retry rather than a
 * hammering one.
 */
public final class DefaultPolicies {

	private static final Map<PolicyKey, Rule> TABLE = build();

	private DefaultPolicies() {
	}

	/**
	 * Return the built-in rules, in the order of docs/policy-table.md.
	 * @return an unmodifiable map of key to rule
	 */
	public static Map<PolicyKey, Rule> table() {
		return TABLE;
	}

	private static Map<PolicyKey, Rule> build() {
		Map<PolicyKey, Rule> table = new LinkedHashMap<>();
		// Seed 001: 4xx (except 429) "不该" be retried: the request itself is wrong. It proves the upstream answers.
		Rule clientError = never(SUCCESS).build();
		table.put(PolicyKey.statusClass(3), clientError);
		table.put(PolicyKey.statusClass(4), clientError);
		table.put(PolicyKey.status(408), Rule.builder()
			.maxAttempts(2)
			.backoff(millis(200), 2, millis(1_000), 0.5)
			.honorRetryAfter(seconds(30))
			.build());
		// Seed 001: 429 "必须退避，且要有抖动" and "也不该计入熔断", "429 起点更长"; a rate limiter rejects before doing
		// any work, so any method may be retried, and the upstream is paused for what it asked.
		Rule tooFast = Rule.builder()
			.maxAttempts(3)
			.backoff(seconds(2), 2, seconds(30), 0.5)
			.honorRetryAfter(seconds(60))
			.idempotentOnly(false)
			.breaker(IGNORE)
			.pause(true)
			.overload(true)
			.build();
		table.put(PolicyKey.status(429), tooFast);
		table.put(PolicyKey.status(498), tooFast.toBuilder().backoff(seconds(1), 2, seconds(30), 0.5).build());
		table.put(PolicyKey.status(499), never(IGNORE).build());
		// Seed 001: 5xx "要退避，但可以更短", "起点更短、次数更宽松", "等 1 秒重试一次", "3 到 5 次"; seed 000: writes
		// (POST, PUT, DELETE) "默认不重试除非有完善的幂等性保障".
		table.put(PolicyKey.statusClass(5), upstreamFault(4).backoff(seconds(1), 2, seconds(4), 0.5).build());
		table.put(PolicyKey.status(501), never(IGNORE).alert(true).build());
		table.put(PolicyKey.status(505), never(IGNORE).alert(true).build());
		// Seed 001: 502 "是最该换通道的一个码"; 503 "要" switch, and is overload like 429; 504 likewise.
		table.put(PolicyKey.status(502), upstreamFault(3).backoff(seconds(1), 2, seconds(4), 0.5).failover(true).build());
		table.put(PolicyKey.status(503), upstreamFault(3).backoff(seconds(1), 2, seconds(8), 0.5)
			.honorRetryAfter(seconds(60))
			.pause(true)
			.overload(true)
			.failover(true)
			.build());
		table.put(PolicyKey.status(504), upstreamFault(2).backoff(seconds(1), 1, seconds(1), 0).failover(true).build());
		// Seed 000: 599 means the backend never answered the proxy; blind retries feed a retry storm.
		table.put(PolicyKey.status(599), never(FAILURE).alert(true).failover(true).build());
		// Nothing was sent before these: nothing can have executed, so a write may fail over to another channel.
		for (TransportFailure failure : new TransportFailure[] { TransportFailure.CONNECT_TIMEOUT,
				TransportFailure.CONNECTION_REFUSED, TransportFailure.UNKNOWN_HOST }) {
			table.put(PolicyKey.transport(failure),
					never(FAILURE).alert(true).idempotentOnly(false).failover(true).build());
		}
		table.put(PolicyKey.transport(TransportFailure.IO_ERROR), never(FAILURE).alert(true).build());
		table.put(PolicyKey.transport(TransportFailure.POOL_TIMEOUT), never(IGNORE).alert(true).idempotentOnly(false).build());
		// The request may have reached the upstream: retried, on the next channel if there is one, for idempotent
		// requests only.
		Rule readFailure = Rule.builder()
			.maxAttempts(2)
			.backoff(millis(200), 1, millis(200), 0)
			.alert(true)
			.failover(true)
			.build();
		table.put(PolicyKey.transport(TransportFailure.READ_TIMEOUT), readFailure);
		table.put(PolicyKey.transport(TransportFailure.CONNECTION_RESET), readFailure);
		// Seed 001: an unknown status is an upstream problem: "记录、告警一次、可重试且计入熔断".
		table.put(PolicyKey.UNKNOWN_STATUS, upstreamFault(3).build());
		// An error event inside a 2xx stream: part of the answer was delivered, so it is never retried.
		table.put(PolicyKey.STREAM_ERROR, never(FAILURE).alert(true).build());
		return Collections.unmodifiableMap(table);
	}

	private static Rule.Builder never(BreakerOutcome breaker) {
		return Rule.builder().breaker(breaker);
	}

	private static Rule.Builder upstreamFault(int attempts) {
		return Rule.builder().maxAttempts(attempts).honorRetryAfter(seconds(30)).alert(true);
	}

	private static Duration millis(long millis) {
		return Duration.ofMillis(millis);
	}

	private static Duration seconds(long seconds) {
		return Duration.ofSeconds(seconds);
	}

}
