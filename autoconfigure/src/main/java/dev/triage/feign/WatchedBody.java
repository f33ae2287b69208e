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
import java.util.Collection;
import java.util.Map;

import dev.triage.engine.Engine;
import feign.Response;

/**
 * The body of a 2xx event stream (SSE, NDJSON), watched by the engine as it is read: an error event ends it with
 * the typed exception.
 */
final class WatchedBody implements Response.Body {

	private final Response.Body delegate;

	private final Engine.Settlement settlement;

	private final String contentType;

	private final String reason;

	private final Map<String, Collection<String>> headers;

	WatchedBody(Response.Body delegate, Engine.Settlement settlement, String contentType, String reason,
			Map<String, Collection<String>> headers) {
		this.delegate = delegate;
		this.settlement = settlement;
		this.contentType = contentType;
		this.reason = reason;
		this.headers = headers;
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
		return this.settlement.watch(this.delegate.asInputStream(), this.contentType, this.reason, this.headers);
	}

	@Override
	public Reader asReader(Charset charset) throws IOException {
		return new InputStreamReader(asInputStream(), charset);
	}

	@Override
	public void close() throws IOException {
		this.delegate.close();
	}

}
