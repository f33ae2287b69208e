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

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

import dev.triage.engine.Engine;
import dev.triage.engine.TransportFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A 2xx answer while the caller reads its body: the attempt is a success only once its body has arrived (or the
 * caller closed it); reading it failing is a transport failure, recorded as its rule says. Exactly one of the two
 * is reported.
 */
final class GuardedResponse implements ClientHttpResponse {

	private final ClientHttpResponse delegate;

	private final Engine.Settlement settlement;

	private boolean settled;

	private TransportFailureException failure;

	private final Duration connectTimeout;

	private final Duration readTimeout;

	GuardedResponse(ClientHttpResponse delegate, Engine.Settlement settlement, Duration connectTimeout,
			Duration readTimeout) {
		this.delegate = delegate;
		this.settlement = settlement;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.delegate.getStatusCode();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.delegate.getStatusText();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.delegate.getHeaders();
	}

	@Override
	public InputStream getBody() throws IOException {
		InputStream in;
		try {
			in = this.delegate.getBody();
			String contentType = this.delegate.getHeaders().getFirst("Content-Type");
			if (Engine.isEventStream(contentType)) {
				in = this.settlement.watch(in, contentType, this.delegate.getStatusText(),
						TriageRequestInterceptor.headers(this.delegate.getHeaders()));
			}
		}
		catch (IOException ex) {
			throw fail(ex);
		}
		return new FilterInputStream(in) {

			@Override
			public int read() throws IOException {
				try {
					int b = super.read();
					if (b == -1) {
						complete();
					}
					return b;
				}
				catch (IOException ex) {
					throw fail(ex);
				}
			}

			@Override
			public int read(byte[] buffer, int offset, int length) throws IOException {
				try {
					int n = super.read(buffer, offset, length);
					if (n == -1) {
						complete();
					}
					return n;
				}
				catch (IOException ex) {
					throw fail(ex);
				}
			}

			@Override
			public void close() throws IOException {
				try {
					super.close();
				}
				finally {
					complete();
				}
			}

		};
	}

	@Override
	public void close() {
		try {
			this.delegate.close();
		}
		finally {
			complete();
		}
	}

	private synchronized void complete() {
		if (!this.settled) {
			this.settled = true;
			this.settlement.completed();
		}
	}

	private synchronized IOException fail(IOException ex) {
		if (!this.settled) {
			this.settled = true;
			this.failure = this.settlement.failed(ex, this.connectTimeout, this.readTimeout);
		}
		return (this.failure != null) ? this.failure : ex;
	}

}
