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
	 * Return whether a failure of this kind came before the request was sent: no connection was had (our own pool's,
	 * or a new one), so nothing reached the upstream and nothing can have executed there.
	 * @return whether the request never reached the wire
	 */
	public boolean beforeTheWire() {
		return this == POOL_TIMEOUT || this == CONNECT_TIMEOUT || this == CONNECTION_REFUSED || this == UNKNOWN_HOST;
	}

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
