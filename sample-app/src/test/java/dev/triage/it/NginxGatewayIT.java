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

package dev.triage.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.OriginalResponse;
import dev.triage.TransportFailure;
import dev.triage.TriageFallback;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.sample.chaos.ChaosUpstream;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * Triage behind a real nginx, in a container on the host network; every upstream is a server of the test's on
 * 127.0.0.1. The image is the system property {@code it.nginx-image} (the public {@code nginx} image by
 * default; CI builds one from Debian's nginx). Without Docker the class is skipped, with that reason.
 */
@ExtendWith(SayWhyWhenSkipped.class)
@Testcontainers
@SpringBootTest(classes = NginxGatewayIT.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.edge.read-timeout=5000",
				"spring.cloud.openfeign.client.config.impatient.read-timeout=500",
				"resilience4j.circuitbreaker.instances.edge.sliding-window-type=COUNT_BASED",
				"resilience4j.circuitbreaker.instances.edge.sliding-window-size=4",
				"resilience4j.circuitbreaker.instances.edge.minimum-number-of-calls=4",
				"resilience4j.circuitbreaker.instances.edge.failure-rate-threshold=50",
				"resilience4j.circuitbreaker.instances.edge.wait-duration-in-open-state=30s" })
class NginxGatewayIT {

	static final ChaosUpstream upstream;

	static final ServerSocket resetting;

	static final int closedPort = freePort();

	static final int nginxPort = freePort();

	static final GenericContainer<?> nginx;

	static {
		try {
			upstream = new ChaosUpstream(0, 3_000, 2);
			resetting = startResettingServer();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		String config = readConfig().replace("@PORT@", Integer.toString(nginxPort))
			.replace("@UPSTREAM@", upstream.url().substring(upstream.url().lastIndexOf(':') + 1))
			.replace("@CLOSED@", Integer.toString(closedPort))
			.replace("@RESET@", Integer.toString(resetting.getLocalPort()));
		nginx = new GenericContainer<>(DockerImageName.parse(System.getProperty("it.nginx-image", "nginx:1.27"))
			.asCompatibleSubstituteFor("nginx"))
			.withNetworkMode("host")
			.withCopyToContainer(Transferable.of(config), "/etc/nginx/triage.conf")
			.withCommand("nginx", "-e", "stderr", "-c", "/etc/nginx/triage.conf", "-g", "daemon off;")
			.waitingFor(Wait.forLogMessage(".*start worker process.*", 1).withStartupTimeout(Duration.ofSeconds(60)));
		nginx.start();
	}

	@DynamicPropertySource
	static void nginxUrl(DynamicPropertyRegistry registry) {
		registry.add("it.nginx.url", () -> "http://127.0.0.1:" + nginxPort);
	}

	@AfterAll
	static void stop() throws IOException {
		nginx.stop();
		upstream.close();
		resetting.close();
	}

	@Autowired
	EdgeClient edge;

	@Autowired
	ImpatientClient impatient;

	@Autowired
	RecordingFallback fallback;

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	void reset() {
		this.fallback.received.clear();
		this.breakers.circuitBreaker("edge").reset();
		this.breakers.circuitBreaker("impatient").reset();
	}

	@Test
	void slowUpstreamIsAGenuine504RetriedOnceAsThe504RowSays() {
		int before = upstream.requests();

		assertThat(this.edge.get("strict", "slow")).isEqualTo("fallback");

		OriginalResponse response = this.fallback.lastResponse();
		assertThat(response.status()).isEqualTo(504);
		assertThat(response.attempts()).isEqualTo(2);
		assertThat(upstream.requests() - before).isEqualTo(2);
		assertThat(this.breakers.circuitBreaker("edge").getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
	}

	@Test
	void nginxOwnRetryMultipliesWhatReachesTheUpstream() {
		int before = upstream.requests();
		this.edge.get("retrying", "slow");
		int withNginxRetry = upstream.requests() - before;

		before = upstream.requests();
		this.edge.get("strict", "slow");
		int withoutNginxRetry = upstream.requests() - before;

		assertThat(withoutNginxRetry).as("proxy_next_upstream off: Triage's 2 attempts").isEqualTo(2);
		assertThat(withNginxRetry).as("proxy_next_upstream error timeout: nginx doubles each attempt").isEqualTo(4);
	}

	@Test
	void closedUpstreamPortIsAGenuine502() {
		assertThat(this.edge.get("closed", "x")).isEqualTo("fallback");

		OriginalResponse response = this.fallback.lastResponse();
		assertThat(response.status()).isEqualTo(502);
		assertThat(response.attempts()).isEqualTo(3);
		assertThat(settledLogLines("502 GET /closed/x")).isEqualTo(3);
	}

	@Test
	void resettingUpstreamIsAGenuine502() {
		this.edge.get("reset", "x");

		assertThat(this.fallback.lastResponse().status()).isEqualTo(502);
		assertThat(settledLogLines("502 GET /reset/x")).isGreaterThanOrEqualTo(3);
	}

	@Test
	void timeoutMappedTo599IsNeverRetriedAndReachesTheFallbackWithItsErrorType() {
		int before = upstream.requests();

		this.edge.get("gateway599", "slow");

		OriginalResponse response = this.fallback.lastResponse();
		assertThat(response.status()).isEqualTo(599);
		assertThat(response.errorType()).isEqualTo("proxy_timeout");
		assertThat(response.attempts()).isEqualTo(1);
		assertThat(this.fallback.received.get(0).exception()).isNull();
		assertThat(upstream.requests() - before).isEqualTo(1);
	}

	@Test
	void aClientThatGivesUpFirstIsLoggedAs499ByNginx() throws Exception {
		long before = countLogLines("499 GET /patient/slow");

		Throwable thrown = catchThrowable(() -> this.impatient.slow());

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (countLogLines("499 GET /patient/slow") - before < 2 && System.nanoTime() < deadline) {
			Thread.sleep(100);
		}
		assertThat(countLogLines("499 GET /patient/slow") - before).as("one 499 per attempt").isEqualTo(2);
	}

	@Test
	void failuresThroughNginxOpenTheBreakerThenNothingReachesNginx() {
		for (int i = 0; i < 4; i++) {
			this.edge.get("gateway599", "hang");
		}
		assertThat(this.breakers.circuitBreaker("edge").getState()).isEqualTo(CircuitBreaker.State.OPEN);
		long logged = settledLogLines("GET /gateway599/hang");

		assertThat(this.edge.get("gateway599", "hang")).isEqualTo("fallback");

		assertThat(this.fallback.received.get(this.fallback.received.size() - 1).exception())
			.isInstanceOf(UpstreamUnavailableException.class);
		assertThat(settledLogLines("GET /gateway599/hang")).isEqualTo(logged);
	}

	private static long countLogLines(String fragment) {
		return nginx.getLogs(OutputFrame.OutputType.STDOUT).lines().filter((line) -> line.contains(fragment)).count();
	}

	/**
	 * Count nginx's access-log lines once every request made so far has been logged and its line has reached the
	 * test: nginx writes a line after the answer went out, and the container's output arrives a little later
	 * still. One nginx worker logs in order, so once the line of a request sent now (straight to nginx, not
	 * through Triage) is there, every earlier one is too.
	 */
	private static long settledLogLines(String fragment) {
		String marker = "/settle-" + System.nanoTime();
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), nginxPort)) {
			socket.getOutputStream()
				.write(("GET " + marker + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
			socket.getInputStream().readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (countLogLines("GET " + marker) == 0) {
			assertThat(System.nanoTime()).as("nginx logged " + marker).isLessThan(deadline);
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		return countLogLines(fragment);
	}

	private static String readConfig() {
		try (InputStream in = NginxGatewayIT.class.getResourceAsStream("/nginx-triage.conf")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Accepts, reads a little, and resets the connection (SO_LINGER 0). */
	private static ServerSocket startResettingServer() throws IOException {
		ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(() -> {
			while (!server.isClosed()) {
				try (Socket socket = server.accept()) {
					socket.setSoLinger(true, 0);
					socket.getInputStream().read();
				}
				catch (IOException ex) {
					// closed: stop
				}
			}
		}, "resetting-upstream");
		acceptor.setDaemon(true);
		acceptor.start();
		return server;
	}

	record Received(Throwable exception, OriginalResponse response) {
	}

	/** Records what it receives and answers "fallback", so the tests can look at the arguments. */
	static class RecordingFallback implements TriageFallback<EdgeClient> {

		final List<Received> received = new CopyOnWriteArrayList<>();

		@Override
		public EdgeClient create(Throwable exception, OriginalResponse response) {
			this.received.add(new Received(exception, response));
			return (location, path) -> "fallback";
		}

		OriginalResponse lastResponse() {
			assertThat(this.received).isNotEmpty();
			OriginalResponse response = this.received.get(this.received.size() - 1).response();
			assertThat(response).isNotNull();
			return response;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { EdgeClient.class, ImpatientClient.class })
	static class App {

		@Bean
		RecordingFallback recordingFallback() {
			return new RecordingFallback();
		}

	}

}
