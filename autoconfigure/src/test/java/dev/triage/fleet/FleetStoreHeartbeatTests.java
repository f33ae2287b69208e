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

package dev.triage.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The fleet store's heartbeat (SPEC §13): while Redis is available, a ping answered later than
 * {@code triage.fleet.timeout} but within a second is not an outage (a JVM starting on a busy machine answers its
 * first pings late without Redis being slower: instances went to their local shares, said Redis was unavailable
 * and counted errors); while Redis is unavailable, a ping must come within the timeout to find it again.
 */
class FleetStoreHeartbeatTests {

	private static final Duration TIMEOUT = Duration.ofMillis(50);

	@Test
	void pingsSomewhatLaterThanTheTimeoutAreNoOutageButAreNoRecoveryEither() throws Exception {
		AtomicLong pingMillis = new AtomicLong(150);
		RedisConnectionFactory factory = mock(RedisConnectionFactory.class);
		RedisConnection connection = mock(RedisConnection.class);
		given(factory.getConnection()).willReturn(connection);
		given(connection.ping()).willAnswer((invocation) -> {
			long millis = pingMillis.get();
			if (millis < 0) {
				throw new RedisConnectionFailureException("refused");
			}
			Thread.sleep(millis);
			return "PONG";
		});
		try (FleetStore store = new FleetStore(factory, "test:", TIMEOUT, Duration.ofMillis(100))) {
			// about 10 pings of 150 ms, each three times the timeout
			Thread.sleep(2_000);
			assertThat(store.connected()).as("pings 150 ms late while available: no outage").isTrue();
			assertThat(store.errors()).isZero();

			pingMillis.set(-1);
			await(() -> !store.connected());
			pingMillis.set(150);
			Thread.sleep(1_000);
			assertThat(store.connected()).as("unavailable: a ping later than the timeout finds nothing").isFalse();

			pingMillis.set(0);
			await(store::connected);
		}
	}

	@Test
	void theFirstPingOpensTheConnectionAtOnceAndMayTakeSecondsWithoutAnError() throws Exception {
		// A JVM that is starting opens its first Redis connection slowly; nothing is wrong with Redis.
		AtomicLong pings = new AtomicLong();
		RedisConnectionFactory factory = mock(RedisConnectionFactory.class);
		RedisConnection connection = mock(RedisConnection.class);
		given(factory.getConnection()).willReturn(connection);
		given(connection.ping()).willAnswer((invocation) -> {
			if (pings.incrementAndGet() == 1) {
				Thread.sleep(1_500);
			}
			return "PONG";
		});
		try (FleetStore store = new FleetStore(factory, "test:", TIMEOUT, Duration.ofMillis(100))) {
			await(() -> pings.get() >= 1);
			Thread.sleep(2_500);
			assertThat(pings.get()).as("pings went on after the first").isGreaterThan(2);
			assertThat(store.errors()).as("the first, slow ping is no error").isZero();
			assertThat(store.connected()).isTrue();
		}
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("within 30 s").isLessThan(deadline);
			Thread.sleep(10);
		}
	}

}
