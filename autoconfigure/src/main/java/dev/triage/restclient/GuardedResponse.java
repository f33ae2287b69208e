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

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

import dev.triage.engine.Engine;
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

	private final Duration connectTimeout;

	private final Duration readTimeout;

	GuardedResponse(ClientHttpResponse delegate, Engine.Settlement settlement, Duration connectTimeout,
			Duration readTimeout) {
		this.delegate = delegate;
		this.settlement = settlement;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	/**
	 * Return how the body settles the attempt.
	 */
	Engine.Settlement settlement() {
		return this.settlement;
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
			throw this.settlement.failedReading(ex, this.connectTimeout, this.readTimeout);
		}
		return this.settlement.guard(in, this.connectTimeout, this.readTimeout);
	}

	@Override
	public void close() {
		try {
			this.delegate.close();
		}
		finally {
			this.settlement.completed();
		}
	}

}
