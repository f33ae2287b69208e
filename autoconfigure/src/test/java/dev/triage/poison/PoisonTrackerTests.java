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

package dev.triage.poison;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import org.junit.jupiter.api.Test;

/**
 * The poison tracker as plain Java, on a hand-driven clock.
 */
class PoisonTrackerTests {

	private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

	private final List<PoisonRequestEvent> events = new CopyOnWriteArrayList<>();

	private PoisonTracker tracker(long maxTracked) {
		return new PoisonTracker(new PoisonTracker.Settings(true, Set.of(500), 3, Duration.ofMinutes(10), maxTracked,
				Duration.ofMinutes(1)), this.nanos::get, this.events::add);
	}

	private static PoisonTracker.EventFactory event(String fingerprint) {
		return (failures) -> new PoisonRequestEvent("inventory", "InventoryClient#item(String)", "GET",
				"http://127.0.0.1/items/1", fingerprint, null,
				new OriginalResponse("inventory", "m", "GET", "u", 500, "", null, null, false, null, null, 1, null),
				failures, Instant.now());
	}

	@Test
	void theThirdFailureWhileOthersSucceedMakesARequestPoisonOnce() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		assertThat(tracker.tracking()).as("nothing failed yet").isFalse();

		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isTrue();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isTrue();

		assertThat(tracker.isPoisoned("a")).isTrue();
		assertThat(tracker.isPoisoned("b")).isFalse();
		assertThat(this.events).hasSize(1);
		assertThat(this.events.get(0).failures()).isEqualTo(3);
		assertThat(tracker.current()).singleElement().satisfies((entry) -> assertThat(entry.fingerprint()).isEqualTo("a"));
	}

	@Test
	void duringAnOutageNothingBecomesPoison() {
		PoisonTracker tracker = tracker(10_000);
		for (int i = 0; i < 10; i++) {
			assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		}
		tracker.onSuccess("GET", "/other");
		this.nanos.addAndGet(Duration.ofMinutes(2).toNanos());
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).as("the last 2xx is too old").isFalse();
		assertThat(this.events).isEmpty();
	}

	@Test
	void aSuccessOfTheSameRequestBeforeItsFailuresSaysNothingAboutOthers() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/a");
		for (int i = 0; i < 5; i++) {
			assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).as("one hot URL down: an outage").isFalse();
		}
		this.nanos.addAndGet(1_000);
		tracker.onSuccess("GET", "/a");
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a")))
			.as("a 2xx after the first counted failure is necessarily another request's (same URL, other body)")
			.isTrue();
	}

	@Test
	void anyOtherOutcomeStartsTheCountOver() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		tracker.onPoisonStatus("a", "GET", "/a", event("a"));
		tracker.onPoisonStatus("a", "GET", "/a", event("a"));
		tracker.onOtherOutcome("a");
		tracker.onPoisonStatus("a", "GET", "/a", event("a"));
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isTrue();
	}

	@Test
	void aPoisonRequestIsForgivenAfterTheTtl() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		for (int i = 0; i < 3; i++) {
			tracker.onPoisonStatus("a", "GET", "/a", event("a"));
		}
		this.nanos.addAndGet(Duration.ofMinutes(9).toNanos());
		assertThat(tracker.isPoisoned("a")).isTrue();
		this.nanos.addAndGet(Duration.ofMinutes(2).toNanos());
		assertThat(tracker.isPoisoned("a")).isFalse();
		assertThat(tracker.tracked()).isZero();
	}

	@Test
	void atMostMaxTrackedFingerprintsAreHeld() {
		PoisonTracker tracker = tracker(100);
		tracker.onSuccess("GET", "/other");
		for (int i = 0; i < 10_000; i++) {
			String fingerprint = "f" + i;
			for (int n = 0; n < 3; n++) {
				tracker.onPoisonStatus(fingerprint, "GET", "/" + fingerprint, event(fingerprint));
			}
		}
		assertThat(tracker.tracked()).isEqualTo(100);
		assertThat(tracker.current()).hasSize(100);
	}

	@Test
	void fingerprintsTellMethodUrlAndBodyApart() {
		String get = PoisonTracker.fingerprint("GET", "http://h/orders?id=1", null);
		assertThat(get).hasSize(64).matches("[0-9a-f]+");
		assertThat(PoisonTracker.fingerprint("GET", "http://h/orders?id=1", new byte[0])).isEqualTo(get);
		assertThat(PoisonTracker.fingerprint("GET", "http://h/orders?id=2", null)).isNotEqualTo(get);
		assertThat(PoisonTracker.fingerprint("POST", "http://h/orders?id=1", null)).isNotEqualTo(get);
		assertThat(PoisonTracker.fingerprint("POST", "http://h/o", "{\"a\":1}".getBytes()))
			.isNotEqualTo(PoisonTracker.fingerprint("POST", "http://h/o", "{\"a\":2}".getBytes()));
	}

}
