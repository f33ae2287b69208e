package dev.triage;

/**
 * Base of the exceptions a Triage-managed Feign call throws when it finally fails and no fallback answered.
 * Messages name the client, method key and outcome; they never carry header values or query strings.
 */
public abstract class UpstreamException extends RuntimeException {

	private final String client;

	private final String methodKey;

	private final int attempts;

	/**
	 * Create an instance.
	 * @param message the message
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param attempts the attempts that reached the wire, 0 when none did
	 * @param cause the cause, may be {@code null}
	 */
	protected UpstreamException(String message, String client, String methodKey, int attempts, Throwable cause) {
		this(message, client, methodKey, attempts, cause, true);
	}

	/**
	 * Create an instance, with or without a stack trace.
	 * @param message the message
	 * @param client the Feign client name
	 * @param methodKey the Feign method key
	 * @param attempts the attempts that reached the wire, 0 when none did
	 * @param cause the cause, may be {@code null}
	 * @param writableStackTrace whether a stack trace is recorded
	 */
	protected UpstreamException(String message, String client, String methodKey, int attempts, Throwable cause,
			boolean writableStackTrace) {
		super(message, cause, true, writableStackTrace);
		this.client = client;
		this.methodKey = methodKey;
		this.attempts = attempts;
	}

	/**
	 * Return the Feign client name.
	 * @return the client name
	 */
	public String client() {
		return this.client;
	}

	/**
	 * Return the Feign method key, e.g. {@code InventoryClient#item(String)}.
	 * @return the method key
	 */
	public String methodKey() {
		return this.methodKey;
	}

	/**
	 * Return how many attempts reached the wire, 0 when none did.
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts;
	}

}
