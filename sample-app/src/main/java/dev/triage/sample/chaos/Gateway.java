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

package dev.triage.sample.chaos;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;

/**
 * A proxy like the first seed's: forwards to the upstream with a short timeout and, when the upstream does
 * not answer in time or resets the connection (the seed's {@code ETIMEDOUT} / {@code ECONNRESET}), answers 599
 * with a JSON body: the backend never answered, so the request may or may not have run. A refused upstream
 * connection is a 502.
 */
public final class Gateway extends LoopbackServer {

	private static final Set<String> RELAYED_HEADERS = Set.of("content-type", "retry-after");

	private final HttpClient client;

	private final String upstream;

	private final Duration timeout;

	/**
	 * Start the gateway.
	 * @param port the port on 127.0.0.1, 0 for any
	 * @param upstream the upstream base URL
	 * @param timeout how long the upstream may take before the gateway answers 599
	 * @throws IOException if the port cannot be bound
	 */
	public Gateway(int port, String upstream, Duration timeout) throws IOException {
		super(port, "gateway");
		this.upstream = upstream;
		this.timeout = timeout;
		this.client = HttpClient.newBuilder().connectTimeout(timeout).executor(this.pool).build();
		start();
	}

	@Override
	void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			HttpRequest request = HttpRequest
				.newBuilder(URI.create(this.upstream + exchange.getRequestURI().toString()))
				.timeout(this.timeout)
				.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body))
				.build();
			HttpResponse<byte[]> response;
			try {
				response = this.client.send(request, HttpResponse.BodyHandlers.ofByteArray());
			}
			catch (HttpConnectTimeoutException ex) {
				ChaosUpstream.send(exchange, 599, ChaosUpstream.error("proxy_connect_timeout",
						"upstream did not accept within " + this.timeout.toMillis() + "ms"), null);
				return;
			}
			catch (HttpTimeoutException ex) {
				ChaosUpstream.send(exchange, 599, ChaosUpstream.error("proxy_timeout",
						"upstream did not answer within " + this.timeout.toMillis() + "ms"), null);
				return;
			}
			catch (ConnectException ex) {
				ChaosUpstream.send(exchange, 502, ChaosUpstream.error("bad_gateway", "upstream refused"), null);
				return;
			}
			catch (IOException ex) {
				ChaosUpstream.send(exchange, 599, ChaosUpstream.error("proxy_upstream_reset",
						"upstream closed the connection without answering"), null);
				return;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			response.headers().map().forEach((name, values) -> {
				if (RELAYED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
					values.forEach((value) -> exchange.getResponseHeaders().add(name, value));
				}
			});
			byte[] bytes = response.body();
			exchange.sendResponseHeaders(response.statusCode(), (bytes.length == 0) ? -1 : bytes.length);
			if (bytes.length > 0) {
				exchange.getResponseBody().write(bytes);
			}
		}
	}

}
