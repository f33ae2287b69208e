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

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import org.junit.jupiter.api.Test;

/**
 * The poison tracker as plain Java, on a hand-driven clock.
 */
class PoisonTrackerTests {

	private static final Fingerprints FINGERPRINTS = new Fingerprints();

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
	void newSettingsKeepThePoisonListAndASmallerCapDropsTheLeastRecentlyUsed() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		for (String fingerprint : List.of("a", "b")) {
			for (int i = 0; i < 3; i++) {
				tracker.onPoisonStatus(fingerprint, "GET", "/" + fingerprint, event(fingerprint));
			}
		}
		tracker.isPoisoned("a");

		tracker.reconfigure(new PoisonTracker.Settings(true, Set.of(500, 502), 5, Duration.ofMinutes(10), 10_000,
				Duration.ofMinutes(1)));
		assertThat(tracker.isPoisoned("a")).isTrue();
		assertThat(tracker.isPoisoned("b")).isTrue();
		assertThat(tracker.isPoisonStatus(502)).as("the new settings apply").isTrue();

		tracker.isPoisoned("a");
		tracker.reconfigure(new PoisonTracker.Settings(true, Set.of(500), 3, Duration.ofMinutes(10), 1,
				Duration.ofMinutes(1)));
		assertThat(tracker.tracked()).isEqualTo(1);
		assertThat(tracker.isPoisoned("a")).as("the most recently used stays").isTrue();
		assertThat(tracker.isPoisoned("b")).isFalse();
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
	void everyRequestCountedWithinTheLastMaxTrackedDistinctOnesIsDetected() {
		// 100,000 distinct requests, each failing three times, with the default max-tracked (10,000). Their
		// attempts interleave in waves of 5,000, as under load: between two attempts of one request, 4,999 other
		// requests are counted, always fewer than max-tracked. A frequency-based cache drops a new entry between
		// its own attempts (its count starts over); least recently used never does.
		AtomicLong published = new AtomicLong();
		PoisonTracker tracker = new PoisonTracker(PoisonTracker.Settings.DEFAULTS, this.nanos::get,
				(event) -> published.incrementAndGet());
		tracker.onSuccess("GET", "/other");
		int requests = 100_000;
		int wave = 5_000;
		long detected = 0;
		for (int first = 0; first < requests; first += wave) {
			for (int attempt = 1; attempt <= 3; attempt++) {
				for (int i = first; i < first + wave; i++) {
					String fingerprint = "f" + i;
					if (tracker.onPoisonStatus(fingerprint, "POST", "/orders", event(fingerprint)) && attempt == 3) {
						detected++;
					}
				}
			}
		}
		assertThat(detected).isEqualTo(requests);
		assertThat(published).hasValue(requests);
		assertThat(tracker.tracked()).isEqualTo(PoisonTracker.Settings.DEFAULTS.maxTracked());
		for (int i = requests - 10_000; i < requests; i++) {
			assertThat(tracker.isPoisoned("f" + i)).as("f%d, poisoned within the last max-tracked", i).isTrue();
		}
	}

	@Test
	void theLeastRecentlyUsedFingerprintIsDroppedFirst() {
		PoisonTracker tracker = tracker(3);
		tracker.onSuccess("GET", "/other");
		tracker.onPoisonStatus("a", "GET", "/a", event("a"));
		tracker.onPoisonStatus("b", "GET", "/b", event("b"));
		tracker.onPoisonStatus("c", "GET", "/c", event("c"));
		tracker.onPoisonStatus("a", "GET", "/a", event("a"));

		tracker.onPoisonStatus("d", "GET", "/d", event("d"));

		assertThat(tracker.tracked()).isEqualTo(3);
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).as("a was used a moment ago: kept, third failure")
			.isTrue();
		assertThat(tracker.onPoisonStatus("b", "GET", "/b", event("b"))).isFalse();
		assertThat(tracker.onPoisonStatus("b", "GET", "/b", event("b"))).as("b was dropped: its count started over")
			.isFalse();
	}

	@Test
	void anotherRequestsSuccessCountsHoweverManySuccessesOfThisRequestCameInBetween() {
		// Another request got 200, then this one 500, 500, 200, 500, 500, 500.
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		this.nanos.addAndGet(1_000);
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		this.nanos.addAndGet(1_000);
		tracker.onSuccess("GET", "/a");
		tracker.onOtherOutcome("a");
		this.nanos.addAndGet(1_000);
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).as("/other answered a moment ago").isTrue();
		assertThat(this.events).singleElement().satisfies((event) -> assertThat(event.failures()).isEqualTo(3));
	}

	@Test
	void anotherRequestsSuccessOlderThanHealthyWithinDoesNotCount() {
		PoisonTracker tracker = tracker(10_000);
		tracker.onSuccess("GET", "/other");
		this.nanos.addAndGet(Duration.ofSeconds(61).toNanos());
		tracker.onSuccess("GET", "/a");
		tracker.onOtherOutcome("a");
		this.nanos.addAndGet(1_000);
		for (int i = 0; i < 5; i++) {
			assertThat(tracker.onPoisonStatus("a", "GET", "/a", event("a"))).isFalse();
		}
		assertThat(this.events).isEmpty();
	}

	@Test
	void fingerprintsAreKeyedWithTheApplicationsSecret() throws Exception {
		String url = "http://h/reset?token=4711";
		String fingerprint = FINGERPRINTS.of("GET", url, null);
		for (String guess : new String[] { "4710", "4711", "4712" }) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			digest.update(("GET http://h/reset?token=" + guess + "\n").getBytes(StandardCharsets.UTF_8));
			assertThat(HexFormat.of().formatHex(digest.digest()))
				.as("an unkeyed hash of a guessed URL matches nothing").isNotEqualTo(fingerprint);
		}
		assertThat(FINGERPRINTS.of("GET", url, null)).as("the same within the application").isEqualTo(fingerprint);
	}

	@Test
	void anotherApplicationsSecretGivesAnotherFingerprint() {
		String url = "http://h/reset?token=4711";
		assertThat(new Fingerprints().of("GET", url, null)).hasSize(64).isNotEqualTo(FINGERPRINTS.of("GET", url, null));
	}

	@Test
	void fingerprintsAreTheSameOnEveryThread() throws Exception {
		String here = FINGERPRINTS.of("POST", "http://h/o", "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<String>> there = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				there.add(executor.submit(() -> FINGERPRINTS.of("POST", "http://h/o",
						"{\"a\":1}".getBytes(StandardCharsets.UTF_8))));
			}
			for (Future<String> print : there) {
				assertThat(print.get()).isEqualTo(here);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void fingerprintsTellMethodUrlAndBodyApart() {
		String get = FINGERPRINTS.of("GET", "http://h/orders?id=1", null);
		assertThat(get).hasSize(64).matches("[0-9a-f]+");
		assertThat(FINGERPRINTS.of("GET", "http://h/orders?id=1", new byte[0])).isEqualTo(get);
		assertThat(FINGERPRINTS.of("GET", "http://h/orders?id=2", null)).isNotEqualTo(get);
		assertThat(FINGERPRINTS.of("POST", "http://h/orders?id=1", null)).isNotEqualTo(get);
		assertThat(FINGERPRINTS.of("POST", "http://h/o", "{\"a\":1}".getBytes()))
			.isNotEqualTo(FINGERPRINTS.of("POST", "http://h/o", "{\"a\":2}".getBytes()));
	}

}
