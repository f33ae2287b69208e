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

package dev.triage.policy;

import dev.triage.TransportFailure;

/**
 * A key of the policy table: an exact status ({@code "503"}), a class of IANA-registered statuses
 * ({@code "5xx"}), a transport failure ({@code "read-timeout"}), {@code unknown-status} or {@code stream-error}.
 *
 * @param kind what the key matches
 * @param status the exact status, or the class digit (3, 4, 5) for a class key, else 0
 * @param transport the transport failure for a transport key, else {@code null}
 */
public record PolicyKey(Kind kind, int status, TransportFailure transport) {

	/** The key for statuses that are neither registered nor configured exactly. */
	public static final PolicyKey UNKNOWN_STATUS = new PolicyKey(Kind.UNKNOWN_STATUS, 0, null);

	/** The key for an error event inside a 2xx stream (SSE or NDJSON). */
	public static final PolicyKey STREAM_ERROR = new PolicyKey(Kind.STREAM_ERROR, 0, null);

	static final String ALLOWED = "an exact status from 100 to 999 (e.g. \"503\"), a class (\"3xx\", \"4xx\", "
			+ "\"5xx\"), \"unknown-status\", \"stream-error\" or a transport failure (" + TransportFailure.allKeys() + ")";

	/**
	 * What a key matches.
	 */
	public enum Kind {

		/** One status code. */
		STATUS,

		/** The IANA-registered codes of one class. */
		STATUS_CLASS,

		/** A failure with no HTTP response. */
		TRANSPORT,

		/** Any status that is not registered and has no exact key. */
		UNKNOWN_STATUS,

		/** An error event inside a 2xx stream. */
		STREAM_ERROR

	}

	/**
	 * Return the key for an exact status.
	 * @param status the status
	 * @return the key
	 */
	public static PolicyKey status(int status) {
		return new PolicyKey(Kind.STATUS, status, null);
	}

	/**
	 * Return the key for a status class.
	 * @param digit the class digit, 3, 4 or 5
	 * @return the key
	 */
	public static PolicyKey statusClass(int digit) {
		return new PolicyKey(Kind.STATUS_CLASS, digit, null);
	}

	/**
	 * Return the key for a transport failure.
	 * @param failure the failure
	 * @return the key
	 */
	public static PolicyKey transport(TransportFailure failure) {
		return new PolicyKey(Kind.TRANSPORT, 0, failure);
	}

	/**
	 * Parse a key as written in configuration.
	 * @param property the property the key appears in, for the error message
	 * @param text the key
	 * @return the key
	 * @throws InvalidPolicyException if the text is not a key
	 */
	public static PolicyKey parse(String property, String text) {
		String key = (text != null) ? text.trim() : "";
		if (key.equals("unknown-status")) {
			return UNKNOWN_STATUS;
		}
		if (key.equals("stream-error")) {
			return STREAM_ERROR;
		}
		if (key.length() == 3 && key.endsWith("xx") && key.charAt(0) >= '3' && key.charAt(0) <= '5') {
			return statusClass(key.charAt(0) - '0');
		}
		if (key.length() == 3 && key.chars().allMatch(Character::isDigit) && key.charAt(0) != '0') {
			return status(Integer.parseInt(key));
		}
		TransportFailure failure = TransportFailure.fromKey(key);
		if (failure != null) {
			return transport(failure);
		}
		throw new InvalidPolicyException(property, text, ALLOWED);
	}

	@Override
	public String toString() {
		return switch (this.kind) {
			case STATUS -> Integer.toString(this.status);
			case STATUS_CLASS -> this.status + "xx";
			case TRANSPORT -> this.transport.key();
			case UNKNOWN_STATUS -> "unknown-status";
			case STREAM_ERROR -> "stream-error";
		};
	}

}
