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

import java.time.Duration;

/**
 * A 2xx body guarded inside the HTTP client itself (Apache HttpClient 5's response entity), so that the adapter
 * need not copy the response to guard its body: passes everything through until the adapter hands it the
 * attempt's {@link Engine.Settlement}, then settles the attempt as {@link Engine.Settlement#guard} does.
 */
public interface BodyGuard {

	/**
	 * Guard the body from now on: its end (or closing it) completes the attempt, a failure to read it fails it.
	 * @param settlement the attempt's settlement
	 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
	 * @param readTimeout the attempt's read timeout, {@code null} when unknown
	 */
	void settle(Engine.Settlement settlement, Duration connectTimeout, Duration readTimeout);

	/**
	 * Return the answer's content type as the HTTP client read it (its first {@code Content-Type} header).
	 * @return the content type, {@code null} when none
	 */
	String contentType();

	/**
	 * Return how reading the body failed.
	 * @return the failure, {@code null} when it did not fail (or the body is not guarded)
	 */
	TransportFailureException failure();

}
