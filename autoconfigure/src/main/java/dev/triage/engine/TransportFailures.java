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

package dev.triage.engine;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import dev.triage.TransportFailure;

/**
 * Maps the I/O exceptions of Apache HttpClient 5 and the JDK to a {@link TransportFailure}, by type (and, for a
 * socket's timeout, by whether its connect threw it), never by message.
 * HttpClient 5 types are matched by name so this works whichever Feign client is underneath.
 */
public final class TransportFailures {

	private static final String POOL_TIMEOUT = "org.apache.hc.core5.http.ConnectionRequestTimeoutException";

	private static final String CONNECT_TIMEOUT = "org.apache.hc.client5.http.ConnectTimeoutException";

	private static final String NO_RESPONSE = "org.apache.hc.core5.http.NoHttpResponseException";

	private static final String CONNECTION_CLOSED = "org.apache.hc.core5.http.ConnectionClosedException";

	/** How HttpClient 5's pools end a wait for a connection whose deadline passed (wrapped by the client). */
	private static final String LEASE_DEADLINE = "org.apache.hc.core5.util.DeadlineTimeoutException";

	/** How deep in a socket timeout's stack trace its socket's connect is looked for. */
	private static final int CONNECT_FRAMES = 12;

	private TransportFailures() {
	}

	/**
	 * Return the kind of an attempt's I/O failure.
	 * @param exception the failure
	 * @return its kind
	 */
	public static TransportFailure classify(IOException exception) {
		for (Throwable t = exception; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			TransportFailure failure = classifyOne(t);
			if (failure != null) {
				return failure;
			}
		}
		return TransportFailure.IO_ERROR;
	}

	private static TransportFailure classifyOne(Throwable t) {
		if (isA(t, POOL_TIMEOUT) || isA(t, LEASE_DEADLINE)) {
			return TransportFailure.POOL_TIMEOUT;
		}
		if (isA(t, CONNECT_TIMEOUT)) {
			return TransportFailure.CONNECT_TIMEOUT;
		}
		if (t instanceof HttpConnectTimeoutException) {
			// the JDK's HttpClient
			return TransportFailure.CONNECT_TIMEOUT;
		}
		if (t instanceof HttpTimeoutException) {
			// the JDK's HttpClient: no answer within the request's timeout, on an established connection
			return TransportFailure.READ_TIMEOUT;
		}
		if (t instanceof SocketTimeoutException) {
			// HttpClient 5 turns connect timeouts into ConnectTimeoutException (matched above); HttpURLConnection
			// and OkHttp throw the socket's own, from its connect. Any other socket timeout happened on an
			// established connection.
			return thrownByConnect(t) ? TransportFailure.CONNECT_TIMEOUT : TransportFailure.READ_TIMEOUT;
		}
		if (t instanceof ConnectException) {
			return TransportFailure.CONNECTION_REFUSED;
		}
		if (t instanceof UnknownHostException) {
			return TransportFailure.UNKNOWN_HOST;
		}
		if (isA(t, NO_RESPONSE) || isA(t, CONNECTION_CLOSED) || t instanceof SocketException
				|| t instanceof EOFException) {
			return TransportFailure.CONNECTION_RESET;
		}
		return null;
	}

	/**
	 * Return the configured value of the timeout that fired, {@code null} when the failure was no timeout.
	 * @param failure the failure
	 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
	 * @param readTimeout the attempt's read timeout, {@code null} when unknown
	 * @param poolTimeout the configured wait for a pooled connection, {@code null} when unknown
	 * @return the configured timeout
	 */
	public static Duration configuredTimeout(TransportFailure failure, Duration connectTimeout, Duration readTimeout,
			Duration poolTimeout) {
		return switch (failure) {
			case CONNECT_TIMEOUT -> connectTimeout;
			case READ_TIMEOUT -> readTimeout;
			case POOL_TIMEOUT -> poolTimeout;
			default -> null;
		};
	}

	/**
	 * Whether a socket timeout was thrown while its socket connected: by {@code java.net.Socket#connect} (or the
	 * JDK's socket implementation's connect underneath it), told by where it was thrown, not by its message.
	 */
	private static boolean thrownByConnect(Throwable t) {
		StackTraceElement[] frames = t.getStackTrace();
		for (int i = 0; i < Math.min(frames.length, CONNECT_FRAMES); i++) {
			String type = frames[i].getClassName();
			if ("connect".equals(frames[i].getMethodName())
					&& (type.startsWith("java.net.") || type.startsWith("sun.nio.ch."))) {
				return true;
			}
		}
		return false;
	}

	private static boolean isA(Throwable t, String className) {
		for (Class<?> type = t.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(className)) {
				return true;
			}
		}
		return false;
	}

}
