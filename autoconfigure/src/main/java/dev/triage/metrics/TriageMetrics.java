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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.AttemptOutcome;
import dev.triage.CallObserver;
import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Triage's meters. Two numbers the seeds insist on are kept apart: every attempt (raw upstream health, what
 * feeds breakers) and every call's final outcome (what users felt). Tags are bounded: client name, Feign method
 * key, outcome, failure class and status or transport code; never a URL, id or message.
 * <ul>
 * <li>{@code triage.attempts} (counter): client, class, code, breaker (how the rule counted it:
 * {@code failure}, {@code success}, {@code ignore}), channel ({@code primary} or a configured channel name)</li>
 * <li>{@code triage.calls} (timer; a histogram only when asked for, like Spring Boot's own
 * {@code http.client.requests}: {@code management.metrics.distribution.percentiles-histogram.triage.calls=true}):
 * client, method, outcome ({@code success}, {@code failure},
 * {@code fallback}, {@code short_circuited}), class, code, alert</li>
 * <li>{@code triage.attempt.latency} (timer; a histogram only when asked for:
 * {@code management.metrics.distribution.percentiles-histogram.triage.attempt.latency=true}): client; how long each
 * attempt took, the upstream's raw latency (the per-call timer includes retries and waits)</li>
 * <li>{@code triage.retries} (counter): client</li>
 * <li>{@code triage.retries.suppressed} (counter): client, reason ({@code budget}, {@code not_idempotent},
 * {@code retry_after_too_long}, {@code deadline}, {@code breaker_open}, {@code paused}, {@code throttled},
 * {@code rate_limited})</li>
 * <li>{@code triage.refusals} (counter): client, reason ({@code breaker_open}, {@code paused},
 * {@code throttled}, {@code rate_limited}, {@code poison}): attempts refused before the wire</li>
 * <li>{@code triage.poison} (counter): client; requests that became poison</li>
 * </ul>
 */
public final class TriageMetrics implements CallObserver, MeterBinder {

	private volatile MeterRegistry registry;

	private final Map<AttemptKey, Counter> attempts = new ConcurrentHashMap<>();

	private final Map<CallKey, Timer> calls = new ConcurrentHashMap<>();

	private final Map<String, Counter> retries = new ConcurrentHashMap<>();

	private final Map<String, Counter> poison = new ConcurrentHashMap<>();

	private final Map<SuppressedKey, Counter> suppressed = new ConcurrentHashMap<>();

	private final Map<SuppressedKey, Counter> refusals = new ConcurrentHashMap<>();

	// The meters of the commonest events, by client, found with one look-up of its name and without building a
	// key: every attempt's latency; an answered attempt by channel and status, kept with the rule and class it was
	// found for (the breaker tag comes from the rule, and a reload brings new rules: then the keyed map decides
	// again); a successful call by method. The same meters as the keyed maps hold.
	private final Map<String, ClientMeters> clients = new ConcurrentHashMap<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onAttempt(AttemptOutcome attempt) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		ClientMeters client = client(attempt.client());
		attemptCounter(registry, client, attempt).increment();
		Timer timer = client.latency;
		if (timer == null) {
			timer = Timer.builder("triage.attempt.latency")
				.description("Duration of each attempt of Triage-managed Feign calls: raw upstream latency")
				.tag("client", attempt.client())
				.register(registry);
			client.latency = timer;
		}
		timer.record(attempt.durationNanos(), TimeUnit.NANOSECONDS);
	}

	private ClientMeters client(String name) {
		ClientMeters client = this.clients.get(name);
		return (client != null) ? client : this.clients.computeIfAbsent(name, (n) -> new ClientMeters());
	}

	/**
	 * The meter of an attempt: found by client, channel and status when the upstream answered and the rule and
	 * class are those last seen for that status; else by its key.
	 */
	private Counter attemptCounter(MeterRegistry registry, ClientMeters client, AttemptOutcome attempt) {
		int status = attempt.status();
		if (attempt.failure() != null || status < 100 || status > 999 || attempt.client() == null
				|| attempt.channel() == null) {
			return keyedCounter(registry, attempt);
		}
		AtomicReferenceArray<Answered> byStatus = client.byStatus(attempt.channel());
		Answered known = byStatus.get(status);
		if (known != null && known.rule() == attempt.rule() && known.failureClass() == attempt.failureClass()) {
			return known.counter();
		}
		Counter counter = keyedCounter(registry, attempt);
		// Racing writers store equal entries; an error type whose rule differs from the status's replaces it.
		byStatus.set(status, new Answered(attempt.rule(), attempt.failureClass(), counter));
		return counter;
	}

	private Counter keyedCounter(MeterRegistry registry, AttemptOutcome attempt) {
		String breaker = (attempt.rule() != null) ? attempt.rule().breaker().tag() : "success";
		AttemptKey key = new AttemptKey(attempt.client(), attempt.failureClass().tag(), attempt.code(), breaker,
				attempt.channel());
		Counter counter = this.attempts.get(key);
		if (counter == null) {
			counter = this.attempts.computeIfAbsent(key, (k) -> Counter.builder("triage.attempts")
				.description("Attempts of Triage-managed Feign calls by outcome: raw upstream health")
				.tag("client", k.client())
				.tag("class", k.failureClass())
				.tag("code", k.code())
				.tag("breaker", k.breaker())
				.tag("channel", k.channel())
				.register(registry));
		}
		return counter;
	}

	@Override
	public void onRetryDecision(String client, RetryDecision decision) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		if (decision.retry()) {
			this.retries.computeIfAbsent(client, (c) -> Counter.builder("triage.retries")
				.description("Retries issued by Triage")
				.tag("client", c)
				.register(registry)).increment();
		}
		else if (decision.suppressed() != null) {
			SuppressedKey key = new SuppressedKey(client, decision.suppressed().tag());
			this.suppressed.computeIfAbsent(key, (k) -> Counter.builder("triage.retries.suppressed")
				.description("Retries the rule allowed but Triage did not make, by reason")
				.tag("client", k.client())
				.tag("reason", k.reason())
				.register(registry)).increment();
		}
	}

	@Override
	public void onRefusal(String client, Refusal refusal) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		this.refusals.computeIfAbsent(new SuppressedKey(client, refusal.tag()), (k) -> Counter.builder("triage.refusals")
			.description("Attempts Triage refused before the wire, by reason")
			.tag("client", k.client())
			.tag("reason", k.reason())
			.register(registry)).increment();
	}

	@Override
	public void onPoison(PoisonRequestEvent event) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		this.poison.computeIfAbsent(event.client(), (client) -> Counter.builder("triage.poison")
			.description("Requests that became poison: the same request failing while the upstream answers others")
			.tag("client", client)
			.register(registry)).increment();
	}

	@Override
	public void onCall(CallRecord call) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		boolean success = call.outcome() == CallOutcome.SUCCESS && call.failureClass() == FailureClass.NONE
				&& "none".equals(call.code()) && !call.alert() && call.client() != null && call.methodKey() != null;
		Timer timer = null;
		Map<String, Timer> successful = null;
		if (success) {
			successful = client(call.client()).successfulCalls;
			timer = successful.get(call.methodKey());
		}
		if (timer == null) {
			timer = callTimer(registry, call);
			if (successful != null) {
				successful.put(call.methodKey(), timer);
			}
		}
		timer.record(call.elapsed().toNanos(), TimeUnit.NANOSECONDS);
	}

	private Timer callTimer(MeterRegistry registry, CallRecord call) {
		CallKey key = new CallKey(call.client(), call.methodKey(), call.outcome().tag(), call.failureClass().tag(),
				call.code(), call.alert());
		Timer timer = this.calls.get(key);
		if (timer == null) {
			timer = this.calls.computeIfAbsent(key, (k) -> Timer.builder("triage.calls")
				.description("Triage-managed Feign calls by final outcome: what the caller felt")
				.tag("client", k.client())
				.tag("method", k.method())
				.tag("outcome", k.outcome())
				.tag("class", k.failureClass())
				.tag("code", k.code())
				.tag("alert", Boolean.toString(k.alert()))
				.register(registry));
		}
		return timer;
	}

	/**
	 * The meters of one client's commonest events.
	 */
	private static final class ClientMeters {

		/** Its {@code triage.attempt.latency}, registered at its first attempt (racing registrations find one meter). */
		volatile Timer latency;

		/** Answered attempts on the primary channel, by status: nearly every attempt. */
		final AtomicReferenceArray<Answered> primary = new AtomicReferenceArray<>(1000);

		/** Answered attempts on the other channels, by channel and status. */
		final Map<String, AtomicReferenceArray<Answered>> channels = new ConcurrentHashMap<>();

		/** Its successful calls' timers, by method. */
		final Map<String, Timer> successfulCalls = new ConcurrentHashMap<>();

		AtomicReferenceArray<Answered> byStatus(String channel) {
			if (OriginalResponse.PRIMARY.equals(channel)) {
				return this.primary;
			}
			AtomicReferenceArray<Answered> byStatus = this.channels.get(channel);
			return (byStatus != null) ? byStatus
					: this.channels.computeIfAbsent(channel, (c) -> new AtomicReferenceArray<>(1000));
		}

	}

	private record Answered(Rule rule, FailureClass failureClass, Counter counter) {
	}

	private record AttemptKey(String client, String failureClass, String code, String breaker, String channel) {
	}

	private record CallKey(String client, String method, String outcome, String failureClass, String code,
			boolean alert) {
	}

	private record SuppressedKey(String client, String reason) {
	}

}
