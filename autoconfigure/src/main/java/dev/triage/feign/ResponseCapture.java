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

package dev.triage.feign;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;

import dev.triage.OriginalResponse;
import dev.triage.policy.RetryAfter;
import feign.Response;
import feign.Util;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Reads an error response into a {@link CapturedBody} without ever buffering more than the cap, and turns it
 * into an {@link OriginalResponse}.
 */
final class ResponseCapture {

	private static final Log logger = LogFactory.getLog(ResponseCapture.class);

	private static final boolean HC5_PRESENT = isPresent("org.apache.hc.core5.http.io.EofSensorInputStream");

	private ResponseCapture() {
	}

	static CapturedBody capture(Response response, ClientRuntime runtime) {
		Response.Body body = response.body();
		if (body instanceof CapturedBody captured) {
			return captured;
		}
		if (body == null) {
			return new CapturedBody(new byte[0], false, null);
		}
		int cap = runtime.maxBodyBytes();
		// Sized by the declared length when there is one (an error body is usually small), grown when more comes.
		Integer declared = body.length();
		byte[] buffer = new byte[(declared != null && declared >= 0) ? Math.min(declared, cap) : Math.min(cap, 1024)];
		int read = 0;
		boolean truncated = false;
		try {
			InputStream in = body.asInputStream();
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
			if (truncated && HC5_PRESENT) {
				Hc5.abort(in);
			}
		}
		catch (IOException | RuntimeException ex) {
			// The body broke off: keep what arrived, and say that it is not all of it.
			truncated = true;
			logger.debug("The error body of " + runtime.name() + " (HTTP " + response.status() + ") broke off after "
					+ read + " bytes", ex);
		}
		finally {
			Util.ensureClosed(body);
		}
		byte[] bytes = (read == buffer.length) ? buffer : java.util.Arrays.copyOf(buffer, read);
		return new CapturedBody(bytes, truncated, runtime.errorTypes().extract(bytes));
	}

	/**
	 * Return a full buffer doubled, up to the cap.
	 */
	private static byte[] grow(byte[] buffer, int cap) {
		return java.util.Arrays.copyOf(buffer, Math.min(cap, Math.max(1024, buffer.length * 2)));
	}

	static OriginalResponse toOriginal(ClientRuntime runtime, String methodKey, Response response,
			CapturedBody body, int attempts, Duration elapsed, String channel) {
		String retryAfterHeader = Requests.firstHeader(response.headers(), "Retry-After");
		Optional<Duration> retryAfter = RetryAfter.parse(retryAfterHeader, runtime.clock());
		if (retryAfterHeader != null && retryAfter.isEmpty()) {
			logger.debug("Ignoring malformed Retry-After from " + runtime.name() + ": not seconds or an HTTP-date");
		}
		String httpMethod = (response.request() != null) ? response.request().httpMethod().name() : "";
		String url = (response.request() != null) ? Requests.sanitizeUrl(response.request().url()) : "";
		return new OriginalResponse(runtime.name(), methodKey, httpMethod, url, response.status(), response.reason(),
				Requests.redact(response.headers(), runtime.sensitiveHeaders()), body.bytes(), body.truncated(),
				body.errorType(), retryAfter, attempts, elapsed, channel);
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, ResponseCapture.class.getClassLoader());
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

		static void abort(InputStream in) throws IOException {
			// Closing normally would drain the rest of a huge body; dropping the connection reads nothing more.
			if (in instanceof org.apache.hc.core5.http.io.EofSensorInputStream eof) {
				eof.abort();
			}
		}

	}

}
