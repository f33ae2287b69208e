package dev.triage.feign;

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
