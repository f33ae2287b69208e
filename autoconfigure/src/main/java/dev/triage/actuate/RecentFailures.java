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

package dev.triage.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.triage.CallObserver;
import dev.triage.CallOutcome;
import dev.triage.CallRecord;

/**
 * Keeps the most recent failed or degraded calls of each client, sanitized: time, method key, class, code,
 * attempts and whether a fallback answered. No header, body, URL or message is kept.
 */
public final class RecentFailures implements CallObserver {

	/** How many failures are kept per client. */
	public static final int CAPACITY = 50;

	private final Map<String, Deque<Failure>> byClient = new ConcurrentHashMap<>();

	private final Clock clock;

	/**
	 * Create a store.
	 * @param clock the clock that stamps failures
	 */
	public RecentFailures(Clock clock) {
		this.clock = clock;
	}

	@Override
	public void onCall(CallRecord call) {
		if (call.outcome() == CallOutcome.SUCCESS) {
			return;
		}
		Deque<Failure> failures = this.byClient.computeIfAbsent(call.client(), (name) -> new ArrayDeque<>());
		Failure failure = new Failure(this.clock.instant(), call.methodKey(), call.outcome().tag(),
				call.failureClass().tag(), call.code(), call.attempts(), call.outcome() == CallOutcome.FALLBACK,
				call.elapsed().toMillis());
		synchronized (failures) {
			if (failures.size() == CAPACITY) {
				failures.removeLast();
			}
			failures.addFirst(failure);
		}
	}

	/**
	 * Return a client's recent failures, newest first.
	 * @param client the client name
	 * @return the failures
	 */
	public List<Failure> of(String client) {
		Deque<Failure> failures = this.byClient.get(client);
		if (failures == null) {
			return List.of();
		}
		synchronized (failures) {
			return List.copyOf(new ArrayList<>(failures));
		}
	}

	/**
	 * One failed or degraded call.
	 *
	 * @param time when the call ended
	 * @param methodKey the Feign method key
	 * @param outcome {@code failure}, {@code fallback} or {@code short_circuited}
	 * @param failureClass the failure class
	 * @param code the status or transport failure key
	 * @param attempts the attempts that reached the wire
	 * @param fallback whether a fallback answered
	 * @param elapsedMillis the call's total time
	 */
	public record Failure(Instant time, String methodKey, String outcome, String failureClass, String code,
			int attempts, boolean fallback, long elapsedMillis) {
	}

}
