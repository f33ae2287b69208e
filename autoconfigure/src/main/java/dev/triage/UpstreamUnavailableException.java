package dev.triage;

/**
 * Triage refused the call before it reached the wire, for example because the upstream's breaker is open.
 */
public class UpstreamUnavailableException extends UpstreamException {

	/**
	 * Create an instance.
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param reason why the call was refused
	 * @param attempts the attempts that reached the wire before the refusal
	 * @param cause the cause, may be {@code null}
	 */
	public UpstreamUnavailableException(String client, String methodKey, String reason, int attempts,
			Throwable cause) {
		super(client + " " + methodKey + ": not called, " + reason, client, methodKey, attempts, cause);
	}

}
