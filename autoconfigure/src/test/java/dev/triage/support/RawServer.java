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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A socket server on 127.0.0.1 that answers every request with bytes of the test's choosing, at the pace of
 * the test's choosing: trickled status lines, headers or bodies, bodies that break off, replies that are not
 * HTTP at all. Counts the requests it received.
 */
public final class RawServer implements AutoCloseable {

	/**
	 * What to send for one request.
	 */
	@FunctionalInterface
	public interface Script {

		void answer(OutputStream out) throws IOException, InterruptedException;

	}

	private final ServerSocket socket;

	private final ExecutorService pool = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "raw-server");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicInteger requests = new AtomicInteger();

	private volatile Script script = (out) -> write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");

	public RawServer() throws IOException {
		this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.pool.execute(this::accept);
	}

	public String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	public int requests() {
		return this.requests.get();
	}

	public void answer(Script script) {
		this.script = script;
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				this.pool.execute(() -> serve(connection));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket connection) {
		try (connection) {
			InputStream in = connection.getInputStream();
			readHead(in);
			this.requests.incrementAndGet();
			this.script.answer(connection.getOutputStream());
		}
		catch (IOException | InterruptedException ex) {
			// the client went away, as some tests intend
		}
	}

	private static void readHead(InputStream in) throws IOException {
		int matched = 0;
		byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
		int b;
		while (matched < end.length && (b = in.read()) != -1) {
			matched = (b == end[matched]) ? matched + 1 : (b == end[0]) ? 1 : 0;
		}
	}

	/**
	 * Write text and flush.
	 */
	public static void write(OutputStream out, String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	/**
	 * Write text one byte at a time, waiting between bytes.
	 */
	public static void trickle(OutputStream out, String text, long millisPerByte) throws IOException, InterruptedException {
		for (byte b : text.getBytes(StandardCharsets.US_ASCII)) {
			out.write(b);
			out.flush();
			Thread.sleep(millisPerByte);
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		this.pool.shutdownNow();
	}

}
