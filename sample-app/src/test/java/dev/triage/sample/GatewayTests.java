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

package dev.triage.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.chaos.Gateway;
import org.junit.jupiter.api.Test;

/**
 * The seed's proxy on its own: 599 when the upstream does not answer in time or resets, 502 when it refuses.
 */
class GatewayTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void slowAndHangingUpstreamsBecome599WithAJsonBody() throws Exception {
		try (ChaosUpstream upstream = new ChaosUpstream(0, 3_000, 2);
				Gateway gateway = new Gateway(0, upstream.url(), Duration.ofMillis(300))) {
			HttpResponse<String> slow = get(gateway.url() + "/slow");
			HttpResponse<String> hang = get(gateway.url() + "/hang");

			assertThat(slow.statusCode()).isEqualTo(599);
			assertThat(slow.body()).contains("\"type\":\"proxy_timeout\"");
			assertThat(hang.statusCode()).isEqualTo(599);
			assertThat(upstream.requests()).isEqualTo(2);
		}
	}

	@Test
	void answersAreRelayedWithStatusRetryAfterAndBody() throws Exception {
		try (ChaosUpstream upstream = new ChaosUpstream(0, 3_000, 2);
				Gateway gateway = new Gateway(0, upstream.url(), Duration.ofMillis(500))) {
			HttpResponse<String> response = get(gateway.url() + "/status/503?retryAfter=7&type=busy");

			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.headers().firstValue("Retry-After")).contains("7");
			assertThat(response.body()).contains("\"type\":\"busy\"");
		}
	}

	@Test
	void refusedUpstreamIs502() throws Exception {
		int closed = FreePorts.next();
		try (Gateway gateway = new Gateway(0, "http://127.0.0.1:" + closed, Duration.ofMillis(500))) {
			HttpResponse<String> response = get(gateway.url() + "/ok");

			assertThat(response.statusCode()).isEqualTo(502);
			assertThat(response.body()).contains("bad_gateway");
		}
	}

	@Test
	void resettingUpstreamIs599LikeTheSeedsProxy() throws Exception {
		try (ServerSocket resetting = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
			Thread acceptor = new Thread(() -> {
				while (!resetting.isClosed()) {
					try (Socket socket = resetting.accept()) {
						socket.setSoLinger(true, 0);
						socket.getInputStream().read();
					}
					catch (IOException ex) {
						return;
					}
				}
			});
			acceptor.setDaemon(true);
			acceptor.start();
			try (Gateway gateway = new Gateway(0, "http://127.0.0.1:" + resetting.getLocalPort(),
					Duration.ofMillis(2_000))) {
				HttpResponse<String> response = get(gateway.url() + "/ok");

				assertThat(response.statusCode()).isEqualTo(599);
				assertThat(response.body()).contains("proxy_upstream_reset");
			}
		}
	}

	private HttpResponse<String> get(String url) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
