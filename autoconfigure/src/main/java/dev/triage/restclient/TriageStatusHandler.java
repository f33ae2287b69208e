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

import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.DefaultResponseErrorHandler;
import org.springframework.web.client.RestClient;

/**
 * RestClient's default status handler for a managed client: a final non-2xx answer is thrown as the
 * {@link dev.triage.UpstreamResponseException} the engine built for it, where RestClient would throw its own
 * {@code RestClientResponseException}. A per-request {@code onStatus} registered by the caller runs first, as
 * RestClient documents.
 */
final class TriageStatusHandler implements RestClient.ResponseSpec.ErrorHandler {

	private static final DefaultResponseErrorHandler SPRING = new DefaultResponseErrorHandler();

	static boolean matches(HttpStatusCode status) {
		return !status.is2xxSuccessful();
	}

	@Override
	public void handle(HttpRequest request, ClientHttpResponse response) throws IOException {
		if (response instanceof CapturedResponse captured) {
			throw captured.failure();
		}
		// Not an answer Triage described (another interceptor replaced it): RestClient's own behaviour.
		if (SPRING.hasError(response)) {
			SPRING.handleError(request.getURI(), request.getMethod(), response);
		}
	}

}
