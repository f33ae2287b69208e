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

import java.time.Duration;
import java.util.List;

import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.CallObserver;
import dev.triage.FailureClass;
import dev.triage.support.RecordingObserver;
import org.junit.jupiter.api.Test;

class CompositeCallObserverTests {

	@Test
	void anObserverThatThrowsNeitherStopsTheOthersNorTheCall() {
		CallObserver broken = new CallObserver() {

			@Override
			public void onCall(CallRecord call) {
				throw new IllegalStateException("metrics backend down");
			}

		};
		RecordingObserver recording = new RecordingObserver();
		CompositeCallObserver composite = new CompositeCallObserver(List.of(broken, recording));
		CallRecord call = new CallRecord("inventory", "InventoryClient#item(String)", null, CallOutcome.SUCCESS, FailureClass.NONE, "none", 1,
				false, Duration.ofMillis(3), null, null);

		composite.onCall(call);

		assertThat(recording.calls).containsExactly(call);
	}

}
