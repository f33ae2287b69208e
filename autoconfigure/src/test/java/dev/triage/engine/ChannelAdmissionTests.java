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
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.triage.Refusal;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.overload.Pause;
import org.junit.jupiter.api.Test;

/**
 * A refusal names the reason that held when admission looked (issue 23 item 8): a pause that ends between two
 * readings of it must not turn into a {@code BREAKER_OPEN} refusal of a breaker that is closed.
 */
class ChannelAdmissionTests {

	@Test
	void aPauseEndingWhileTheAttemptIsAdmittedIsStillThePauseNotAnOpenBreaker() {
		// Every reading of the clock is a millisecond later; the pause lasts one millisecond from the reading
		// that set it, so a second reading during admission already sees it over.
		AtomicLong millis = new AtomicLong(1_000);
		Clock ticking = new Clock() {

			@Override
			public long millis() {
				return millis.getAndIncrement();
			}

			@Override
			public Instant instant() {
				return Instant.ofEpochMilli(millis());
			}

			@Override
			public java.time.ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(java.time.ZoneId zone) {
				return this;
			}

		};
		Pause pause = new Pause(ticking);
		pause.pauseFor(Duration.ofMillis(2));
		ClientRuntime runtime = mock(ClientRuntime.class);
		given(runtime.name()).willReturn("inventory");
		given(runtime.channels())
			.willReturn(new Channels(List.of(new Channel("primary", null, UpstreamBreaker.NONE, pause))));
		Protections.ChannelAdmission admission = new Protections.ChannelAdmission(runtime);
		Engine engine = mock(Engine.class);
		given(engine.runtime()).willReturn(runtime);
		Call call = Call.open(engine, "InventoryClient#item(String)");
		try {
			RefusedException refused = admission.before(new Attempt(call, "GET", "http://inventory/items/1", null));

			assertThat(refused).isNotNull();
			assertThat(refused.refusal()).isEqualTo(Refusal.PAUSED);
			assertThat(refused.getMessage()).doesNotContain("circuit breaker");
		}
		finally {
			call.close();
		}
	}

}
