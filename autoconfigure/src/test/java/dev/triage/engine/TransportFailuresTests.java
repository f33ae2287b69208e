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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;

import javax.net.ssl.SSLHandshakeException;

import dev.triage.TransportFailure;
import dev.triage.support.FullBacklog;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.junit.jupiter.api.Test;

class TransportFailuresTests {

	@Test
	void exceptionsAreClassifiedByTypeNeverByMessage() {
		assertThat(classify(new ConnectionRequestTimeoutException("Read timed out"))).isEqualTo(TransportFailure.POOL_TIMEOUT);
		assertThat(classify(new ConnectTimeoutException("Read timed out"))).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
		assertThat(classify(new SocketTimeoutException("Connect timed out"))).as("not by its message")
			.isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(classify(new HttpHostConnectException("timeout"))).isEqualTo(TransportFailure.CONNECTION_REFUSED);
		assertThat(classify(new ConnectException())).isEqualTo(TransportFailure.CONNECTION_REFUSED);
		assertThat(classify(new UnknownHostException("nowhere.invalid"))).isEqualTo(TransportFailure.UNKNOWN_HOST);
		assertThat(classify(new NoHttpResponseException("x"))).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(classify(new ConnectionClosedException("x"))).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(classify(new SocketException("Connection reset"))).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(classify(new EOFException())).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(classify(new SSLHandshakeException("bad certificate"))).isEqualTo(TransportFailure.IO_ERROR);
		assertThat(classify(new IOException("anything"))).isEqualTo(TransportFailure.IO_ERROR);
	}

	/**
	 * The JDK's own clients, on real sockets (loopback): a connect that runs into its timeout (an accept queue
	 * that is full) and an answer that does not come (a server that accepts and says nothing).
	 */
	@Test
	void theJdkClientsTimeoutsAreToldApartByWhereTheyWereThrown() throws Exception {
		try (FullBacklog backlog = FullBacklog.open(); ServerSocket silent = new ServerSocket(0, 50,
				InetAddress.getLoopbackAddress())) {
			String quiet = "http://127.0.0.1:" + silent.getLocalPort() + "/";
			// HttpURLConnection (and OkHttp): the socket's own SocketTimeoutException, from connect or from a read
			assertThat(classify(urlConnection(backlog.url() + "/"))).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
			assertThat(classify(urlConnection(quiet))).isEqualTo(TransportFailure.READ_TIMEOUT);
			Socket socket = new Socket();
			IOException connect = catchIo(() -> socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
					URI.create(backlog.url()).getPort()), 200));
			socket.close();
			assertThat(classify(connect)).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
			// java.net.http.HttpClient: types of its own
			HttpClient jdk = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();
			assertThat(classify(catchIo(() -> jdk.send(HttpRequest.newBuilder(URI.create(backlog.url() + "/")).build(),
					BodyHandlers.discarding())))).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
			assertThat(classify(catchIo(() -> jdk.send(HttpRequest.newBuilder(URI.create(quiet))
				.timeout(Duration.ofMillis(200))
				.build(), BodyHandlers.discarding())))).isEqualTo(TransportFailure.READ_TIMEOUT);
		}
	}

	private static IOException urlConnection(String url) {
		return catchIo(() -> {
			HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
			connection.setConnectTimeout(200);
			connection.setReadTimeout(200);
			connection.getResponseCode();
		});
	}

	private static IOException catchIo(IoCall call) {
		try {
			call.run();
		}
		catch (IOException ex) {
			return ex;
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		throw new AssertionError("no IOException");
	}

	interface IoCall {

		void run() throws IOException, InterruptedException;

	}

	@Test
	void wrappedCausesAreFound() {
		assertThat(classify(new IOException("wrapper", new UnknownHostException("x"))))
			.isEqualTo(TransportFailure.UNKNOWN_HOST);
	}

	@Test
	void aPoolsLeaseDeadlineIsAPoolTimeout() {
		// HttpClient 5's pool ends a wait whose deadline passed with its DeadlineTimeoutException, which the
		// client wraps in RequestFailedException("Request execution failed"): it was taken for an io-error.
		IOException wrapped = new IOException("Request execution failed",
				org.apache.hc.core5.util.DeadlineTimeoutException.from(org.apache.hc.core5.util.Deadline.MIN_VALUE));
		assertThat(classify(wrapped)).isEqualTo(TransportFailure.POOL_TIMEOUT);
	}

	@Test
	void configuredTimeoutIsTheOneThatFired() {
		Duration connect = Duration.ofMillis(300);
		Duration read = Duration.ofSeconds(2);
		Duration pool = Duration.ofSeconds(3);
		assertThat(TransportFailures.configuredTimeout(TransportFailure.CONNECT_TIMEOUT, connect, read, pool))
			.isEqualTo(Duration.ofMillis(300));
		assertThat(TransportFailures.configuredTimeout(TransportFailure.READ_TIMEOUT, connect, read, pool))
			.isEqualTo(Duration.ofSeconds(2));
		assertThat(TransportFailures.configuredTimeout(TransportFailure.POOL_TIMEOUT, connect, read, pool)).isEqualTo(pool);
		assertThat(TransportFailures.configuredTimeout(TransportFailure.CONNECTION_RESET, connect, read, pool)).isNull();
	}

	private static TransportFailure classify(IOException exception) {
		return TransportFailures.classify(exception);
	}

}
