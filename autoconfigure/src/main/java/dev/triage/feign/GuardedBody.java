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

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.time.Duration;

import dev.triage.engine.Engine;
import dev.triage.engine.TransportFailureException;
import feign.Response;

/**
 * The body of a 2xx answer while a decoder reads it. An answer is only a success once its body has arrived: the
 * attempt's outcome is settled when the body ends or is closed (a success) or when reading it fails (a transport
 * failure, classified, recorded and retried like any other). Exactly one of the two is reported.
 */
final class GuardedBody implements Response.Body {

	private final Response.Body delegate;

	private final Engine.Settlement outcome;

	private final Duration connectTimeout;

	private final Duration readTimeout;

	private boolean settled;

	private TransportFailureException failure;

	GuardedBody(Response.Body delegate, Engine.Settlement outcome, Duration connectTimeout, Duration readTimeout) {
		this.delegate = delegate;
		this.outcome = outcome;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	/**
	 * Return how reading the body failed, {@code null} when it did not.
	 */
	TransportFailureException failure() {
		return this.failure;
	}

	@Override
	public Integer length() {
		return this.delegate.length();
	}

	@Override
	public boolean isRepeatable() {
		return false;
	}

	@Override
	public InputStream asInputStream() throws IOException {
		InputStream in;
		try {
			in = this.delegate.asInputStream();
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
	public Reader asReader(Charset charset) throws IOException {
		return new InputStreamReader(asInputStream(), charset);
	}

	@Override
	public void close() throws IOException {
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
			this.outcome.completed();
		}
	}

	private synchronized IOException fail(IOException ex) {
		if (!this.settled) {
			this.settled = true;
			this.failure = this.outcome.failed(ex, this.connectTimeout, this.readTimeout);
		}
		return (this.failure != null) ? this.failure : ex;
	}

}
