package dev.triage.feign;

import java.io.IOException;
import java.time.Duration;

import dev.triage.TransportFailure;

/**
 * An attempt's I/O failure, classified by {@link TriageClient}. Feign wraps it in a
 * {@link feign.RetryableException}; {@link TriageRetryer} unwraps it.
 */
final class TransportFailureException extends IOException {

	private final TransportFailure failure;

	private final Duration configuredTimeout;

	TransportFailureException(TransportFailure failure, Duration configuredTimeout, IOException cause) {
		super(failure.key() + ": " + cause.getClass().getSimpleName(), cause);
		this.failure = failure;
		this.configuredTimeout = configuredTimeout;
	}

	TransportFailure failure() {
		return this.failure;
	}

	Duration configuredTimeout() {
		return this.configuredTimeout;
	}

	IOException io() {
		return (IOException) getCause();
	}

}
