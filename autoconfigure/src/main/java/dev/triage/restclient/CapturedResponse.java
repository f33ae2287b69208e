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
package dev.triage.restclient;

import java.io.ByteArrayInputStream;
import java.io.InputStream;

import dev.triage.UpstreamResponseException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The final non-2xx answer of a call, its body as captured (up to the cap), with the exception that describes
 * it: {@link TriageStatusHandler} throws that one, and a caller's own status handler or {@code exchange} reads
 * the answer itself.
 */
final class CapturedResponse implements ClientHttpResponse {

	private final HttpStatusCode status;

	private final String statusText;

	private final HttpHeaders headers;

	private final byte[] body;

	private final UpstreamResponseException failure;

	CapturedResponse(HttpStatusCode status, String statusText, HttpHeaders headers, byte[] body,
			UpstreamResponseException failure) {
		this.status = status;
		this.statusText = statusText;
		this.headers = readable(headers);
		this.body = body;
		this.failure = failure;
	}

	/**
	 * Return the headers with a {@code Content-Type} that does not parse left out: RestClient parses it before it
	 * runs any status handler (Spring Framework 6.2), and would throw its {@code InvalidMediaTypeException} instead
	 * of the answer's {@link UpstreamResponseException}. The original response keeps the header as it came.
	 */
	private static HttpHeaders readable(HttpHeaders headers) {
		try {
			headers.getContentType();
			return headers;
		}
		catch (InvalidMediaTypeException ex) {
			HttpHeaders readable = new HttpHeaders();
			headers.forEach((name, values) -> {
				if (!HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
					readable.addAll(name, values);
				}
			});
			return readable;
		}
	}

	UpstreamResponseException failure() {
		return this.failure;
	}

	@Override
	public HttpStatusCode getStatusCode() {
		return this.status;
	}

	@Override
	public String getStatusText() {
		return this.statusText;
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.headers;
	}

	@Override
	public InputStream getBody() {
		return new ByteArrayInputStream(this.body);
	}

	@Override
	public void close() {
	}

}
