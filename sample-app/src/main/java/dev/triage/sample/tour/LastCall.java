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

package dev.triage.sample.tour;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.triage.CallObserver;
import dev.triage.CallOutcome;
import dev.triage.CallRecord;

/**
 * Remembers the last call Triage reported, so a tour row shows what Triage itself decided.
 */
public class LastCall implements CallObserver {

	private final AtomicReference<CallRecord> last = new AtomicReference<>();

	private final AtomicInteger alertWorthy = new AtomicInteger();

	@Override
	public void onCall(CallRecord call) {
		this.last.set(call);
		if (call.alert() && call.outcome() != CallOutcome.SUCCESS) {
			this.alertWorthy.incrementAndGet();
		}
	}

	/**
	 * Return how many alert-worthy failures were reported so far: the call log's WARN lines.
	 */
	int alertWorthy() {
		return this.alertWorthy.get();
	}

	CallRecord take() {
		return this.last.getAndSet(null);
	}

}
