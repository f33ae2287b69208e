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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} (Debian's {@code redis-server} package) on a free loopback port, started and
 * killed by the test, with a tiny client of its own to look inside. Without {@code redis-server} on the PATH the
 * test is skipped with the reason shown, unless {@code TRIAGE_REQUIRE_REDIS=true} (as in CI) makes it a
 * failure.
 */
public final class RedisServer implements AutoCloseable {

	private final String binary;

	private final int port;

	private final Path log;

	private Process process;

	private RedisServer(String binary, int port) throws IOException {
		this.binary = binary;
		this.port = port;
		this.log = Files.createTempFile("triage-redis-", ".log");
	}

	/**
	 * Start a server on a free loopback port, or skip the test when there is no {@code redis-server}.
	 * @return the running server
	 * @throws Exception when it does not start
	 */
	public static RedisServer startOrSkip() throws Exception {
		String binary = find();
		if (binary == null) {
			assertThat(System.getenv("TRIAGE_REQUIRE_REDIS")).as("redis-server is required here but not on PATH")
				.isNotEqualTo("true");
			String reason = "redis-server not on PATH: install Debian's 'redis-server' package to run the fleet tests";
			System.out.println("Fleet tests SKIPPED: " + reason);
			Assumptions.abort(reason);
		}
		RedisServer server = new RedisServer(binary, freePort());
		server.start();
		return server;
	}

	/**
	 * Return the port.
	 * @return the loopback port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Start the server (again, on the same port), waiting until it answers.
	 * @throws Exception when it does not start within 10 s
	 */
	public synchronized void start() throws Exception {
		this.process = new ProcessBuilder(this.binary, "--port", Integer.toString(this.port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no", "--protected-mode", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
			.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			try {
				if ("PONG".equals(command("PING"))) {
					return;
				}
			}
			catch (IOException ex) {
				if (System.nanoTime() > deadline || !this.process.isAlive()) {
					throw new IllegalStateException("redis-server did not start on port " + this.port + ": "
							+ Files.readString(this.log), ex);
				}
				Thread.sleep(20);
			}
		}
	}

	/**
	 * Kill the server at once (SIGKILL), as a crash would.
	 * @throws InterruptedException when interrupted
	 */
	public synchronized void kill() throws InterruptedException {
		if (this.process != null) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

	/**
	 * Run one command and return its reply: a string, a number, or a list for an array.
	 * @param args the command and its arguments
	 * @return the reply, {@code null} for a nil reply
	 * @throws IOException when the server cannot be reached
	 */
	public Object command(String... args) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
			for (String arg : args) {
				request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
					.append("\r\n");
			}
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			return read(new BufferedInputStream(socket.getInputStream()));
		}
	}

	/**
	 * Return the number of keys.
	 * @return DBSIZE
	 * @throws IOException when the server cannot be reached
	 */
	public long dbSize() throws IOException {
		return (Long) command("DBSIZE");
	}

	@Override
	public void close() throws Exception {
		kill();
		Files.deleteIfExists(this.log);
	}

	private static Object read(InputStream in) throws IOException {
		int type = in.read();
		String line = line(in);
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new IOException("Redis error: " + line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] data = in.readNBytes(length + 2);
				return new String(data, 0, length, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<Object> items = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					items.add(read(in));
				}
				return items;
			}
			default:
				throw new IOException("Unexpected reply type " + type);
		}
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != '\r') {
			if (c < 0) {
				throw new IOException("connection closed");
			}
			line.append((char) c);
		}
		in.read();
		return line.toString();
	}

	private static String find() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			File candidate = new File(dir, "redis-server");
			if (candidate.canExecute()) {
				return candidate.getAbsolutePath();
			}
		}
		return null;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
