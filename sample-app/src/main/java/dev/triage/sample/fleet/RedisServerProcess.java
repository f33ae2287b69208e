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

package dev.triage.sample.fleet;

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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of the tour's own on a free 127.0.0.1 port: no persistence, stopped when the scene ends,
 * and by a shutdown hook should the JVM end first.
 */
public final class RedisServerProcess implements AutoCloseable {

	/** How to get a {@code redis-server} when there is none. */
	public static final String HOW_TO_GET_IT = "apt-get install redis-server (or --demo.fleet.redis-server=/path/to/redis-server)";

	private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final Process process;

	private final int port;

	private final Path log;

	private final Thread shutdownHook;

	private RedisServerProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
		this.shutdownHook = new Thread(process::destroyForcibly, "redis-server-stop");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Find the {@code redis-server} to run: the configured one, else the first executable {@code redis-server}
	 * in one of the {@code PATH} entries (searched here, without a shell).
	 * @param configured a path set by {@code demo.fleet.redis-server}, blank for none
	 * @return the executable, {@code null} when there is none
	 */
	public static File find(String configured) {
		if (configured != null && !configured.isBlank()) {
			File file = new File(configured.trim());
			return (file.isFile() && file.canExecute()) ? file : null;
		}
		String path = System.getenv("PATH");
		if (path == null) {
			return null;
		}
		for (String dir : path.split(File.pathSeparator)) {
			if (!dir.isEmpty()) {
				File candidate = new File(dir, "redis-server");
				if (candidate.isFile() && candidate.canExecute()) {
					return candidate;
				}
			}
		}
		return null;
	}

	/**
	 * Start a server on a free loopback port and wait until it answers {@code PING}.
	 * @param binary the {@code redis-server} executable
	 * @return the running server
	 * @throws IOException when it does not start within 10 seconds
	 */
	public static RedisServerProcess start(File binary) throws IOException {
		IOException last = null;
		// a free port may be taken by someone else before the server binds it: try another one
		for (int attempt = 0; attempt < 3; attempt++) {
			int port = freePort();
			Path log = Files.createTempFile("triage-tour-redis-", ".log");
			Process process = new ProcessBuilder(List.of(binary.getAbsolutePath(), "--port", Integer.toString(port),
					"--bind", "127.0.0.1", "--save", "", "--appendonly", "no"))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			RedisServerProcess server = new RedisServerProcess(process, port, log);
			try {
				server.awaitPong();
				return server;
			}
			catch (IOException ex) {
				last = ex;
				server.close();
			}
		}
		throw last;
	}

	/**
	 * Return the port.
	 * @return the port on 127.0.0.1
	 */
	public int port() {
		return this.port;
	}

	private void awaitPong() throws IOException {
		long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
		while (true) {
			try {
				if (ping()) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				throw new IOException("redis-server did not answer on 127.0.0.1:" + this.port + ": " + logTail());
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("interrupted while waiting for redis-server", ex);
			}
		}
	}

	private boolean ping() throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(2000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = in.readNBytes(7);
			return "+PONG\r\n".equals(new String(reply, StandardCharsets.US_ASCII));
		}
	}

	private String logTail() {
		try {
			String text = Files.readString(this.log).strip();
			return text.isEmpty() ? "(no output)" : text.substring(Math.max(0, text.length() - 400));
		}
		catch (IOException ex) {
			return "(no output)";
		}
	}

	/** Stop the server (SIGTERM, then SIGKILL after 5 seconds) and delete its log. */
	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs anyway
		}
		try {
			Files.deleteIfExists(this.log);
		}
		catch (IOException ex) {
			// a temporary file
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
