package dev.triage.sample.tour;

import java.util.concurrent.atomic.AtomicReference;

import dev.triage.feign.CallObserver;
import dev.triage.feign.CallRecord;

/**
 * Remembers the last call Triage reported, so a tour row shows what Triage itself decided.
 */
public class LastCall implements CallObserver {

	private final AtomicReference<CallRecord> last = new AtomicReference<>();

	@Override
	public void onCall(CallRecord call) {
		this.last.set(call);
	}

	CallRecord take() {
		return this.last.getAndSet(null);
	}

}
