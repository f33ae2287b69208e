package dev.triage.feign;

import java.io.IOException;

/**
 * The breaker refused an attempt before it reached the wire. Thrown as an {@link IOException} so that Feign
 * hands it to the retryer, which ends the call with the last real outcome or a refusal.
 */
final class BreakerOpenException extends IOException {

	BreakerOpenException(String client, String state) {
		super("circuit breaker '" + client + "' is " + state);
	}

}
