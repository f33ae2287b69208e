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

package dev.triage.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.triage.TransportFailure;
import org.junit.jupiter.api.Test;

/**
 * The attempt bound's watch, without an HTTP client: what is shut down, and when. Waits are bounded by latches,
 * never by a margin: a bound fires once it has passed, at most a tick later, however loaded the machine.
 */
class AttemptAbortTests {

	private static final long MILLIS = 1_000_000L;

	@Test
	void aBoundThatPassesShutsItsTargetDownOnceAndSaysWhatWasConfigured() throws Exception {
		AttemptAbort abort = new AttemptAbort();
		CountDownLatch shut = new CountDownLatch(1);
		AtomicInteger shutdowns = new AtomicInteger();
		long start = System.nanoTime();
		abort.bound(start + 50 * MILLIS, 50);
		abort.arm(() -> {
			shutdowns.incrementAndGet();
			shut.countDown();
		});

		assertThat(shut.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(System.nanoTime() - start).as("not before the bound").isGreaterThanOrEqualTo(50 * MILLIS);
		assertThat(abort.fired()).isTrue();
		assertThat(abort.configured()).isEqualTo(Duration.ofMillis(50));
		abort.cancel();
		assertThat(abort.fired()).as("a bound that fired stays fired").isTrue();
		assertThat(shutdowns).hasValue(1);
	}

	@Test
	void aRequestReadyWithLessThanTheMarginOfItsBoundLeftIsNotSentAndReachedNoWire() {
		AttemptAbort abort = new AttemptAbort();
		AtomicInteger shutdowns = new AtomicInteger();
		Object exchange = new Object();
		long at = System.nanoTime() + 60_000 * MILLIS;
		abort.bound(at, Duration.ofMinutes(1));
		abort.armUntilSent(exchange, (held) -> true, (held) -> shutdowns.incrementAndGet());

		// A pooled connection came with 5 ms of the call's deadline left.
		assertThat(abort.sending(exchange, at - 5 * MILLIS)).isFalse();
		assertThat(abort.tooLateToSend()).isTrue();
		assertThat(abort.fired()).isTrue();
		assertThat(abort.cutAs()).as("nothing was sent; not the upstream's failure")
			.isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(shutdowns).as("the caller fails the exchange before it sends").hasValue(0);

		// The next attempt's connection came with more than the margin left: it sends.
		abort.bound(at, Duration.ofMinutes(1));
		abort.armUntilSent(exchange, (held) -> true, (held) -> shutdowns.incrementAndGet());
		assertThat(abort.sending(exchange, at - (AttemptAbort.SEND_MARGIN_MILLIS + 1) * MILLIS)).isTrue();
		assertThat(abort.fired()).isFalse();
		assertThat(abort.tooLateToSend()).isFalse();
		abort.cancel();
		assertThat(shutdowns).hasValue(0);
	}

	@Test
	void aDisarmedBoundNeverFiresAndTheNextAttemptsBoundStillDoes() throws Exception {
		AttemptAbort abort = new AttemptAbort();
		AtomicInteger first = new AtomicInteger();
		// Far enough that no stall of the machine lets it pass before it is disarmed.
		abort.bound(System.nanoTime() + 1_000 * MILLIS, 1_000);
		abort.arm(first::incrementAndGet);
		abort.cancel();

		// The next attempt of the same call: a bound that fires; the first one's time passes meanwhile.
		CountDownLatch second = new CountDownLatch(1);
		abort.bound(System.nanoTime() + 1_200 * MILLIS, Duration.ofMillis(1_200));
		abort.arm(second::countDown);

		assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(first).as("the disarmed bound passed long before").hasValue(0);
		assertThat(abort.fired()).isTrue();
		assertThat(abort.configured()).isEqualTo(Duration.ofMillis(1_200));
		abort.bound(System.nanoTime() + 10_000 * MILLIS, 10_000);
		assertThat(abort.fired()).as("the next attempt starts unfired").isFalse();
	}

	@Test
	void theWatchThreadEndsWithNothingArmedAndTheNextBoundStartsAnother() throws Exception {
		AttemptAbort abort = new AttemptAbort();
		abort.bound(System.nanoTime() + 1_000 * MILLIS, 1_000);
		abort.arm(() -> {
		});
		assertThat(watchThreads()).as("a bound armed is watched").isNotEmpty();
		abort.cancel();

		// No thread outlives the calls: an application closed, a redeploy, a test's contexts.
		await().atMost(Duration.ofSeconds(20)).until(() -> watchThreads().isEmpty());

		CountDownLatch fired = new CountDownLatch(1);
		abort.bound(System.nanoTime() + 50 * MILLIS, 50);
		abort.arm(fired::countDown);
		assertThat(fired.await(10, TimeUnit.SECONDS)).as("a bound armed afterwards still fires").isTrue();
		assertThat(abort.fired()).isTrue();
	}

	private static List<Thread> watchThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && "triage-attempt-abort".equals(thread.getName()))
			.toList();
	}

	@Test
	void aShutdownThatThrowsWhenTheBoundFiresAtOnceIsNotThrownToTheAttempt() {
		AttemptAbort abort = new AttemptAbort();
		abort.bound(System.nanoTime() - 1, 5);

		abort.arm(() -> {
			throw new IllegalStateException("the connection could not be shut down");
		});

		assertThat(abort.fired()).isTrue();
	}

	@Test
	void aBoundAlreadyPassedWhenArmedFiresAtOnce() {
		AttemptAbort abort = new AttemptAbort();
		AtomicInteger shutdowns = new AtomicInteger();
		abort.bound(System.nanoTime() - 1, 5);

		abort.arm(shutdowns::incrementAndGet);

		assertThat(shutdowns).hasValue(1);
		assertThat(abort.fired()).isTrue();
	}

	@Test
	void manyCallsArmingAtOnceEachFireTheirOwnBoundAndNoOther() throws Exception {
		int calls = 200;
		CountDownLatch fired = new CountDownLatch(calls / 2);
		List<AttemptAbort> aborts = new ArrayList<>();
		AtomicInteger wrong = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int offset = t;
			Thread thread = new Thread(() -> {
				for (int i = offset; i < calls; i += 4) {
					AttemptAbort abort = new AttemptAbort();
					synchronized (aborts) {
						aborts.add(abort);
					}
					boolean fires = i % 2 == 0;
					abort.bound(System.nanoTime() + (fires ? 20 : 5_000) * MILLIS, fires ? 20 : 5_000);
					abort.arm(fires ? fired::countDown : wrong::incrementAndGet);
					if (!fires) {
						abort.cancel();
					}
				}
			});
			threads.add(thread);
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join();
		}

		assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(wrong).hasValue(0);
		assertThat(aborts.stream().filter(AttemptAbort::fired).count()).isEqualTo(calls / 2);
	}

	@Test
	void aShutdownThatThrowsDoesNotStopTheWatchOfTheOtherBounds() throws Exception {
		// Fired by the watch, or at once when the machine stalled past the bound before it was armed: either way
		// the shutdown's failure is logged, never thrown.
		AttemptAbort failing = new AttemptAbort();
		failing.bound(System.nanoTime() + 10 * MILLIS, 10);
		failing.arm(() -> {
			throw new IllegalStateException("the connection could not be shut down");
		});
		CountDownLatch shut = firing(60);

		assertThat(shut.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(failing.fired()).isTrue();
	}

	@Test
	void anInterruptedWatchGoesOnWatching() throws Exception {
		assertThat(firing(5).await(10, TimeUnit.SECONDS)).as("the watch runs").isTrue();
		Thread watch = Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().equals("triage-attempt-abort"))
			.findFirst()
			.orElseThrow();

		watch.interrupt();
		CountDownLatch shut = firing(30);

		assertThat(shut.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(watch.isAlive()).isTrue();
	}

	@Test
	void aBoundArmedAfterTheWatchFellAsleepStillFires() throws Exception {
		// Nothing armed for longer than the watch lingers: it sleeps until a bound arrives.
		assertThat(firing(10).await(10, TimeUnit.SECONDS)).isTrue();
		Thread.sleep(1_500);

		CountDownLatch shut = firing(20);

		assertThat(shut.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aBoundThatPassesBeforeTheRequestIsSentCutsAnAttemptThatSentNothing() {
		AttemptAbort connecting = new AttemptAbort();
		AtomicInteger shutdowns = new AtomicInteger();
		connecting.bound(System.nanoTime() - 1, Duration.ofMillis(5));
		connecting.armUntilSent("exchange", (exchange) -> true, (exchange) -> shutdowns.incrementAndGet());

		assertThat(connecting.cutAs()).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
		assertThat(connecting.sending()).as("the request is not sent once the bound fired").isFalse();
		assertThat(shutdowns).hasValue(1);

		AttemptAbort leasing = new AttemptAbort();
		leasing.bound(System.nanoTime() - 1, Duration.ofMillis(5));
		leasing.armUntilSent("exchange", (exchange) -> false, (exchange) -> {
		});

		assertThat(leasing.cutAs()).isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(leasing.sending()).isFalse();
	}

	@Test
	void aBoundThatPassesOnceTheRequestIsSentIsAReadTimeout() throws Exception {
		AttemptAbort abort = new AttemptAbort();
		CountDownLatch shut = new CountDownLatch(1);
		// Far enough that no stall of the machine lets it pass before the request is marked as sent.
		abort.bound(System.nanoTime() + 1_000 * MILLIS, Duration.ofMillis(1_000));
		abort.armUntilSent("exchange", (exchange) -> true, (exchange) -> shut.countDown());
		assertThat(abort.cutAs()).as("not fired yet").isNull();

		assertThat(abort.sending()).isTrue();

		assertThat(shut.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(abort.cutAs()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(abort.configured()).isEqualTo(Duration.ofMillis(1_000));
	}

	@Test
	void aBoundArmedWithoutBeingToldOfTheSendingCountsAsAReadTimeout() {
		AttemptAbort abort = new AttemptAbort();
		abort.bound(System.nanoTime() - 1, 5);

		abort.arm(() -> {
		});

		assertThat(abort.cutAs()).isEqualTo(TransportFailure.READ_TIMEOUT);
	}

	@Test
	void sendingWithoutABoundIsAllowedAndADisarmedBoundNeverFires() throws Exception {
		AttemptAbort abort = new AttemptAbort();
		assertThat(abort.sending()).as("no bound set").isTrue();
		AtomicInteger shutdowns = new AtomicInteger();
		abort.bound(System.nanoTime() + 1_000 * MILLIS, 1_000);
		abort.armUntilSent("exchange", (exchange) -> true, (exchange) -> shutdowns.incrementAndGet());
		assertThat(abort.sending()).isTrue();

		abort.cancel();

		// A bound that fires later shows the watch has looked past the disarmed one.
		assertThat(firing(1_200).await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(shutdowns).hasValue(0);
		assertThat(abort.cutAs()).isNull();
	}

	/**
	 * Arm a new bound of a call that passes in {@code millis}; its shutdown counts the latch returned down.
	 */
	private static CountDownLatch firing(long millis) {
		AttemptAbort abort = new AttemptAbort();
		CountDownLatch shut = new CountDownLatch(1);
		abort.bound(System.nanoTime() + millis * MILLIS, millis);
		abort.arm(shut::countDown);
		return shut;
	}

}
