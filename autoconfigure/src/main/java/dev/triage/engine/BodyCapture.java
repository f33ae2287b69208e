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

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Reads an error body into a {@link CapturedBody} without ever buffering more than the cap. Closing the body is
 * the adapter's business.
 */
public final class BodyCapture {

	private static final Log logger = LogFactory.getLog(BodyCapture.class);

	private static final boolean HC5_PRESENT = isPresent("org.apache.hc.core5.http.io.EofSensorInputStream");

	private BodyCapture() {
	}

	/**
	 * Read an error body up to the client's cap.
	 * @param in the body's stream, {@code null} for none
	 * @param declared the declared length, {@code null} when unknown
	 * @param runtime the client
	 * @param status the answer's status, for the log
	 * @return what was read
	 */
	public static CapturedBody capture(InputStream in, Integer declared, ClientRuntime runtime, int status) {
		if (in == null) {
			return CapturedBody.EMPTY;
		}
		int cap = runtime.maxBodyBytes();
		// Sized by the declared length when there is one (an error body is usually small), grown when more comes.
		byte[] buffer = new byte[(declared != null && declared >= 0) ? Math.min(declared, cap) : Math.min(cap, 1024)];
		int read = 0;
		boolean truncated = false;
		try {
			while (true) {
				if (read == buffer.length) {
					int next = in.read();
					if (next == -1) {
						break;
					}
					if (read >= cap) {
						truncated = true;
						break;
					}
					buffer = grow(buffer, cap);
					buffer[read++] = (byte) next;
					continue;
				}
				int n = in.read(buffer, read, buffer.length - read);
				if (n == -1) {
					break;
				}
				read += n;
			}
			if (truncated) {
				drop(in, runtime);
			}
		}
		catch (IOException | RuntimeException ex) {
			// The body broke off: keep what arrived, and say that it is not all of it.
			truncated = true;
			logger.debug("The error body of " + runtime.name() + " (HTTP " + status + ") broke off after " + read
					+ " bytes", ex);
		}
		byte[] bytes = (read == buffer.length) ? buffer : Arrays.copyOf(buffer, read);
		return new CapturedBody(bytes, truncated, runtime.errorTypes().extract(bytes));
	}

	/**
	 * Let go of the rest of a body past the cap without reading it: HttpClient 5's connection is dropped; any other
	 * client's stream is closed before the response is (Spring's responses on the JDK's clients drain the rest of
	 * the body when they are closed: on {@code HttpURLConnection} all of it, on the JDK {@code HttpClient} until its
	 * read timeout; closing their stream first gives up the connection, or lets the JDK clean it up on its own
	 * thread).
	 */
	private static void drop(InputStream in, ClientRuntime runtime) throws IOException {
		if (HC5_PRESENT && Hc5.abort(in)) {
			return;
		}
		try {
			in.close();
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Closing the error body of " + runtime.name() + " past its cap failed", ex);
		}
	}

	/**
	 * Return a full buffer doubled, up to the cap.
	 */
	private static byte[] grow(byte[] buffer, int cap) {
		return Arrays.copyOf(buffer, Math.min(cap, Math.max(1024, buffer.length * 2)));
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, BodyCapture.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * Kept apart so that HttpClient 5 types are only loaded when HttpClient 5 is present.
	 */
	private static final class Hc5 {

		static boolean abort(InputStream in) throws IOException {
			// Closing normally would drain the rest of a huge body; dropping the connection reads nothing more.
			// The stream may be wrapped by the client (Spring's request factories wrap HttpClient 5's entity).
			if (in instanceof org.apache.hc.core5.http.io.EofSensorInputStream eof) {
				eof.abort();
				return true;
			}
			return false;
		}

	}

}
