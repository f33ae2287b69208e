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

/**
 * What the JDK's HTTP clients send by themselves (SPEC §5, §11: the wire sees what the table says). Both send a
 * request again, once, when its answer fails to arrive, and neither can be told not to: such a request reaches
 * the wire up to twice per attempt of the table. Triage cannot switch that off as it does HttpClient 5's
 * retries; the adapters say so once per client, naming the way back to Apache HttpClient 5.
 */
public final class JdkClientResends {

	/** {@code HttpURLConnection}: a request without a body, after an I/O error reading its answer. */
	public static final String HTTP_URL_CONNECTION = "the JDK's HttpURLConnection, which sends a request without a "
			+ "body (a GET, a DELETE) again by itself, once, when reading its answer fails (a connection reset)";

	/** {@code java.net.http.HttpClient}: a GET or HEAD whose connection closed before any answer. */
	public static final String HTTP_CLIENT = "the JDK's HttpClient, which sends a GET or HEAD again by itself, once, "
			+ "when its connection closes before an answer (a connection reset)";

	/** What that does to the table. */
	public static final String CONSEQUENCE = ": such a request can reach the wire twice per attempt of Triage's "
			+ "policy table, and nothing switches that off";

	/** The HttpClient 5 Triage bounds, for the ways back. */
	public static final String BOUND_HTTP_CLIENT_5 = "AttemptAbortInterceptor.addTo(HttpClients.custom()"
			+ ".disableAutomaticRetries()).build()";

	private JdkClientResends() {
	}

}
