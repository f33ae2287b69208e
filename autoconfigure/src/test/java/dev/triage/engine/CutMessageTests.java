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

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import dev.triage.TransportFailure;
import org.junit.jupiter.api.Test;

/**
 * What an attempt cut at its bound says it was doing (the message of the cause of its
 * {@code UpstreamTransportException}, in the call log): a call that never got a pooled connection did not await
 * an answer.
 */
class CutMessageTests {

	private final AttemptAbort deadline = new AttemptAbort();

	CutMessageTests() {
		this.deadline.bound(System.nanoTime() + Duration.ofSeconds(2).toNanos(), Duration.ofSeconds(2));
	}

	@Test
	void cutWhileWaitingForAPooledConnection() {
		assertThat(Engine.cutBy(this.deadline, TransportFailure.POOL_TIMEOUT, new IOException("shut")))
			.hasMessage("the call's deadline of 2000ms passed while the attempt waited for a pooled connection");
	}

	@Test
	void cutWhileConnecting() {
		assertThat(Engine.cutBy(this.deadline, TransportFailure.CONNECT_TIMEOUT, new IOException("shut")))
			.hasMessage("the call's deadline of 2000ms passed while connecting");
	}

	@Test
	void heldBackWithTooLittleOfTheDeadlineLeftToSend() {
		AttemptAbort abort = new AttemptAbort();
		Object exchange = new Object();
		long at = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		abort.bound(at, Duration.ofSeconds(2));
		abort.armUntilSent(exchange, (held) -> true, (held) -> {
		});
		abort.sending(exchange, at - Duration.ofMillis(3).toNanos());

		assertThat(Engine.cutBy(abort, abort.cutAs(), new IOException("not sent")))
			.hasMessage("less than 10ms of the call's deadline of 2000ms was left when its connection was ready: not sent");
	}

	@Test
	void aTimeoutThatRanOutWithTheDeadlineIsTheDeadlines() {
		AttemptAbort passed = new AttemptAbort();
		passed.bound(System.nanoTime() - 1, Duration.ofMillis(700));
		AttemptAbort before = new AttemptAbort();
		before.bound(System.nanoTime() + Duration.ofSeconds(60).toNanos(), 3_000L,
				System.nanoTime() + Duration.ofSeconds(60).toNanos(), Duration.ofSeconds(60));
		AttemptAbort none = new AttemptAbort();
		none.bound(System.nanoTime() - 1, 3_000L);

		assertThat(Engine.ranOutWithTheDeadline(passed, TransportFailure.READ_TIMEOUT)).isTrue();
		assertThat(Engine.ranOutWithTheDeadline(passed, TransportFailure.CONNECTION_RESET)).isFalse();
		assertThat(Engine.ranOutWithTheDeadline(before, TransportFailure.READ_TIMEOUT)).isFalse();
		assertThat(Engine.ranOutWithTheDeadline(none, TransportFailure.READ_TIMEOUT)).isFalse();
		assertThat(Engine.ranOutWithTheDeadline(passed, TransportFailure.CONNECT_TIMEOUT)).isTrue();
		assertThat(Engine.deadlinePassed(passed, TransportFailure.READ_TIMEOUT,
				new SocketTimeoutException("Read timed out")))
			.hasMessage("the call's deadline of 700ms passed while the answer was awaited")
			.hasCauseInstanceOf(SocketTimeoutException.class);
		assertThat(Engine.deadlinePassed(passed, TransportFailure.CONNECT_TIMEOUT,
				new SocketTimeoutException("Connect timed out")))
			.hasMessage("the call's deadline of 700ms passed while connecting");
	}

	@Test
	void cutOnceTheRequestMayHaveBeenSent() {
		assertThat(Engine.cutBy(this.deadline, TransportFailure.READ_TIMEOUT, new IOException("shut")))
			.hasMessage("the call's deadline of 2000ms passed while the answer was awaited")
			.hasCauseInstanceOf(IOException.class);
	}

}
