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

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;

import dev.triage.engine.CapturedBody;
import feign.Response;

/**
 * An error body as the engine captured it, travelling from {@link TriageClient} to {@link TriageErrorDecoder}
 * inside the Feign response, so the body is read and parsed once per attempt.
 */
final class BufferedBody implements Response.Body {

	private final CapturedBody captured;

	BufferedBody(CapturedBody captured) {
		this.captured = captured;
	}

	CapturedBody captured() {
		return this.captured;
	}

	@Override
	public Integer length() {
		return this.captured.bytes().length;
	}

	@Override
	public boolean isRepeatable() {
		return true;
	}

	@Override
	public InputStream asInputStream() {
		return new ByteArrayInputStream(this.captured.bytes());
	}

	@Override
	public Reader asReader(Charset charset) {
		return new InputStreamReader(asInputStream(), charset);
	}

	@Override
	public void close() {
	}

}
