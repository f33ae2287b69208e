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

package dev.triage.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * GETs from the application under test, on loopback, with the JDK's HTTP client: the same on both Spring Boot
 * lines (Boot's {@code TestRestTemplate} moved module and package in Boot 4). The port is
 * {@code local.server.port}, which both lines set.
 */
public final class LocalHttp {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private LocalHttp() {
	}

	/**
	 * An answer: its status and body.
	 * @param status the status
	 * @param body the body
	 */
	public record Answer(int status, String body) {
	}

	/**
	 * GET a path of the application.
	 * @param port the application's port
	 * @param path the path, e.g. {@code /actuator/health}
	 * @return the answer
	 */
	public static Answer get(int port, String path) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.build(), path);
	}

	/**
	 * POST an empty body to a path of the application.
	 * @param port the application's port
	 * @param path the path, e.g. {@code /actuator/refresh}
	 * @return the answer
	 */
	public static Answer post(int port, String path) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), path);
	}

	private static Answer send(HttpRequest request, String path) {
		try {
			HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
			return new Answer(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(request.method() + " " + path + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(request.method() + " " + path + " interrupted", ex);
		}
	}

}
