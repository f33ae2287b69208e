package dev.triage;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How an attempt failed when no HTTP response came back. Each kind points at a different cause: our own
 * pool, the network path, or an upstream that accepted the request and went quiet.
 */
public enum TransportFailure {

	/** Waiting for a pooled connection timed out: our own pool is saturated. */
	POOL_TIMEOUT,

	/** The TCP connection could not be established in time. */
	CONNECT_TIMEOUT,

	/** The upstream actively refused the connection. */
	CONNECTION_REFUSED,

	/** The upstream host name could not be resolved. */
	UNKNOWN_HOST,

	/** Connected, but the response did not complete in time: the request may have executed. */
	READ_TIMEOUT,

	/** The peer closed or reset the connection, or sent no response at all. */
	CONNECTION_RESET,

	/** Any other I/O failure. */
	IO_ERROR;

	/**
	 * Return the kebab-case key used in property names, e.g. {@code read-timeout}.
	 * @return the property key
	 */
	public String key() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Return the failure for a kebab-case key.
	 * @param key a key such as {@code connect-timeout}
	 * @return the failure, or {@code null} when the key names none
	 */
	public static TransportFailure fromKey(String key) {
		for (TransportFailure failure : values()) {
			if (failure.key().equals(key)) {
				return failure;
			}
		}
		return null;
	}

	/**
	 * Return every key, comma separated, for error messages.
	 * @return the keys
	 */
	public static String allKeys() {
		return Arrays.stream(values()).map(TransportFailure::key).collect(Collectors.joining(", "));
	}

}
