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

import feign.Response;

/**
 * An error body read once, up to the cap, together with what Triage learnt from it. It travels from
 * {@link TriageClient} to {@link TriageErrorDecoder} inside the Feign response, so the body is read and
 * parsed once per attempt.
 */
final class CapturedBody implements Response.Body {

	private final byte[] bytes;

	private final boolean truncated;

	private final String errorType;

	CapturedBody(byte[] bytes, boolean truncated, String errorType) {
		this.bytes = bytes;
		this.truncated = truncated;
		this.errorType = errorType;
	}

	byte[] bytes() {
		return this.bytes;
	}

	boolean truncated() {
		return this.truncated;
	}

	String errorType() {
		return this.errorType;
	}

	@Override
	public Integer length() {
		return this.bytes.length;
	}

	@Override
	public boolean isRepeatable() {
		return true;
	}

	@Override
	public InputStream asInputStream() {
		return new ByteArrayInputStream(this.bytes);
	}

	@Override
	public Reader asReader(Charset charset) {
		return new InputStreamReader(asInputStream(), charset);
	}

	@Override
	public void close() {
	}

}
