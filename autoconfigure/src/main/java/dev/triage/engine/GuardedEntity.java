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
import java.io.OutputStream;
import java.time.Duration;

import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * The entity of a 2xx answer of Apache HttpClient 5, as a {@link BodyGuard}: whoever reads the body (Feign's
 * client reads it through {@link #getContent()}, and closes it through it too) reads it guarded once the adapter
 * has settled it; until then, and when it never does, it passes everything through.
 */
final class GuardedEntity extends HttpEntityWrapper implements BodyGuard {

	private volatile Engine.Settlement settlement;

	private Duration connectTimeout;

	private Duration readTimeout;

	GuardedEntity(HttpEntity entity) {
		super(entity);
	}

	@Override
	public void settle(Engine.Settlement settlement, Duration connectTimeout, Duration readTimeout) {
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
		this.settlement = settlement;
	}

	@Override
	public String contentType() {
		return getContentType();
	}

	@Override
	public TransportFailureException failure() {
		Engine.Settlement settlement = this.settlement;
		return (settlement != null) ? settlement.failure() : null;
	}

	@Override
	public InputStream getContent() throws IOException {
		Engine.Settlement settlement = this.settlement;
		if (settlement == null) {
			return super.getContent();
		}
		InputStream in;
		try {
			in = super.getContent();
		}
		catch (IOException ex) {
			throw settlement.failedReading(ex, this.connectTimeout, this.readTimeout);
		}
		return (in != null) ? settlement.guard(in, this.connectTimeout, this.readTimeout) : null;
	}

	@Override
	public void writeTo(OutputStream out) throws IOException {
		if (this.settlement == null) {
			super.writeTo(out);
			return;
		}
		try (InputStream in = getContent()) {
			if (in != null) {
				in.transferTo(out);
			}
		}
	}

	@Override
	public void close() throws IOException {
		try {
			super.close();
		}
		finally {
			Engine.Settlement settlement = this.settlement;
			if (settlement != null) {
				settlement.completed();
			}
		}
	}

}
