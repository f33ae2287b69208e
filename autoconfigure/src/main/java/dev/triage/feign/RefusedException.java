package dev.triage.feign;

import java.io.IOException;

import dev.triage.Refusal;

/**
 * Triage refused an attempt before it reached the wire. Thrown as an {@link IOException} so that Feign hands
 * it to the retryer, which ends the call with the last real outcome or an
 * {@link dev.triage.UpstreamUnavailableException}. Carries no stack trace: refusing must stay cheap.
 */
final class RefusedException extends IOException {

	private final Refusal refusal;

	RefusedException(Refusal refusal, String detail) {
		super(detail, null);
		this.refusal = refusal;
	}

	Refusal refusal() {
		return this.refusal;
	}

	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}

}
