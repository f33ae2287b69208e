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
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.time.Duration;

import dev.triage.engine.Engine;
import dev.triage.engine.TransportFailureException;
import feign.Response;

/**
 * The body of a 2xx answer while a decoder reads it. An answer is only a success once its body has arrived: the
 * engine's {@link Engine.Settlement} settles the attempt when the body ends or is closed (a success) or when
 * reading it fails (a transport failure, classified, recorded and retried like any other).
 */
final class GuardedBody implements Response.Body {

	private final Response.Body delegate;

	private final Engine.Settlement settlement;

	private final Duration connectTimeout;

	private final Duration readTimeout;

	GuardedBody(Response.Body delegate, Engine.Settlement settlement, Duration connectTimeout, Duration readTimeout) {
		this.delegate = delegate;
		this.settlement = settlement;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	/**
	 * Return how reading the body failed, {@code null} when it did not.
	 */
	TransportFailureException failure() {
		return this.settlement.failure();
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
			throw this.settlement.failedReading(ex, this.connectTimeout, this.readTimeout);
		}
		return this.settlement.guard(in, this.connectTimeout, this.readTimeout);
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
			this.settlement.completed();
		}
	}

}
