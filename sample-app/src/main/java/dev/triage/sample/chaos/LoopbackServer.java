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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An HTTP server of the demo's own on 127.0.0.1 that counts every request it receives.
 */
abstract class LoopbackServer implements AutoCloseable {

	protected final ExecutorService pool;

	private final HttpServer server;

	private final AtomicInteger requests = new AtomicInteger();

	LoopbackServer(int port, String threadName) throws IOException {
		this.pool = Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, threadName);
			thread.setDaemon(true);
			return thread;
		});
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
		this.server.setExecutor(this.pool);
		this.server.createContext("/", (exchange) -> {
			this.requests.incrementAndGet();
			handle(exchange);
		});
	}

	/** Start serving; subclasses call it once their own fields are set. */
	final void start() {
		this.server.start();
	}

	abstract void handle(HttpExchange exchange) throws IOException;

	/**
	 * Return the base URL.
	 * @return e.g. {@code http://127.0.0.1:18081}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Return how many requests reached this server so far.
	 * @return the count
	 */
	public int requests() {
		return this.requests.get();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.pool.shutdownNow();
	}

}
