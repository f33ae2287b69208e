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

package dev.triage.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A minimal HTTP/1.1 upstream on loopback for the benchmarks: keep-alive, {@code TCP_NODELAY}, each answer
 * written in one piece, a thread per connection. It costs little and the same for every contender, so what
 * differs between them is the client side. (The JDK's HttpServer writes headers and body apart, and Nagle's
 * algorithm with delayed ACKs then adds ~40 ms to a call.)
 */
final class LoopbackUpstream implements AutoCloseable {

	/**
	 * What the upstream answers to a path.
	 */
	record Answer(int status, String extraHeaders, byte[] body) {
	}

	private final ServerSocket socket;

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "loopback-upstream");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicLong requests = new AtomicLong();

	/** Requests by the first segment of their path ({@code /c3} of {@code /c3/ok}). */
	private final Map<String, AtomicLong> byPrefix = new ConcurrentHashMap<>();

	/** Connections by the first segment of the path of their first request. */
	private final Map<String, AtomicLong> connectionsByPrefix = new ConcurrentHashMap<>();

	/** Each answer's bytes, built once rather than formatted for every request. */
	private final Map<Answer, byte[]> responses = new ConcurrentHashMap<>();

	private final Function<String, Answer> answers;

	LoopbackUpstream(Function<String, Answer> answers) throws IOException {
		this.answers = answers;
		this.socket = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
		this.threads.execute(this::accept);
	}

	String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	/**
	 * Requests that reached this upstream.
	 */
	long requests() {
		return this.requests.get();
	}

	/**
	 * Requests that reached this upstream under a path's first segment.
	 * @param prefix the first segment, such as {@code /c3}
	 */
	long requests(String prefix) {
		AtomicLong counted = this.byPrefix.get(prefix);
		return (counted != null) ? counted.get() : 0;
	}

	/**
	 * Connections opened by clients calling under a path's first segment (counted by their first request).
	 * @param prefix the first segment, such as {@code /c3}
	 */
	long connections(String prefix) {
		AtomicLong counted = this.connectionsByPrefix.get(prefix);
		return (counted != null) ? counted.get() : 0;
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				connection.setTcpNoDelay(true);
				this.threads.execute(() -> serve(connection));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket connection) {
		try (connection; InputStream in = new BufferedInputStream(connection.getInputStream());
				OutputStream out = connection.getOutputStream()) {
			boolean first = true;
			while (true) {
				String requestLine = line(in);
				if (requestLine == null || requestLine.isEmpty()) {
					return;
				}
				long contentLength = 0;
				for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
					if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) {
						contentLength = Long.parseLong(header.substring(15).trim());
					}
				}
				in.skipNBytes(contentLength);
				this.requests.incrementAndGet();
				String path = requestLine.split(" ")[1];
				int second = path.indexOf('/', 1);
				String prefix = (second > 0) ? path.substring(0, second) : path;
				this.byPrefix.computeIfAbsent(prefix, (p) -> new AtomicLong()).incrementAndGet();
				if (first) {
					this.connectionsByPrefix.computeIfAbsent(prefix, (p) -> new AtomicLong()).incrementAndGet();
					first = false;
				}
				Answer answer = this.answers.apply(path);
				out.write(this.responses.computeIfAbsent(answer, LoopbackUpstream::response));
				out.flush();
			}
		}
		catch (IOException ex) {
			// the client closed the connection
		}
	}

	private static byte[] response(Answer answer) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + answer.body().length);
		String head = String.format(Locale.ROOT,
				"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n", answer.status(),
				answer.body().length, (answer.extraHeaders() != null) ? answer.extraHeaders() : "");
		bytes.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
		bytes.writeBytes(answer.body());
		return bytes.toByteArray();
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				int end = line.length();
				return (end > 0 && line.charAt(end - 1) == '\r') ? line.substring(0, end - 1) : line.toString();
			}
			line.append((char) c);
		}
		return (line.length() == 0) ? null : line.toString();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		this.threads.shutdownNow();
	}

}
