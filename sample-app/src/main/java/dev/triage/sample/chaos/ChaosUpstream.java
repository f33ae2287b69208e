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
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;

/**
 * A misbehaving upstream on its own loopback port, started with the app. Every request is counted, so the tour
 * reports what really reached the wire.
 * <ul>
 * <li>{@code /ok}: 200</li>
 * <li>{@code /slow}: answers after {@code slowMillis}, longer than any read timeout of the demo</li>
 * <li>{@code /hang}: accepts and never answers</li>
 * <li>{@code /reset}: reads the request and closes the connection without answering</li>
 * <li>{@code /status/{code}?retryAfter=N&type=T}: that status with a JSON error body
 * {@code {"error":{"type":T,"message":…}}}</li>
 * <li>{@code /flap/{key}}: fails as set by {@link #flap}, then 200</li>
 * <li>{@code /quota/{key}}: 429 with {@code Retry-After: 1} above {@code quotaPerSecond} requests a second</li>
 * <li>{@code /items/{id}}: an inventory item, or 500 while {@link #setSick sick}</li>
 * <li>{@code /llm/v1/messages?scenario=S}: an LLM-API-style endpoint answering by scenario</li>
 * <li>{@code /sms/send}: 503 while {@link #setDown down}, else 200 naming this server</li>
 * <li>{@code /orders/{id}}: 500 for the id {@code poison} (a request that trips a bug), else 200</li>
 * </ul>
 */
public final class ChaosUpstream extends LoopbackServer {

	private final long slowMillis;

	private final int quotaPerSecond;

	private final Map<String, AtomicInteger> flapsLeft = new ConcurrentHashMap<>();

	private final Map<String, Integer> flapStatus = new ConcurrentHashMap<>();

	private final Map<String, long[]> quota = new ConcurrentHashMap<>();

	/** The quotas used up by {@link #exhaustQuota}: the next request of each is answered 429. */
	private final Set<String> exhausted = ConcurrentHashMap.newKeySet();

	private volatile boolean sick;

	private volatile boolean down;

	private volatile String name = "chaos-upstream";

	/**
	 * Start the upstream.
	 * @param port the port on 127.0.0.1, 0 for any
	 * @param slowMillis how long {@code /slow} takes
	 * @param quotaPerSecond how many {@code /quota} requests a second are allowed
	 * @throws IOException if the port cannot be bound
	 */
	public ChaosUpstream(int port, long slowMillis, int quotaPerSecond) throws IOException {
		super(port, "chaos-upstream");
		this.slowMillis = slowMillis;
		this.quotaPerSecond = quotaPerSecond;
		start();
	}

	/**
	 * Make {@code /flap/{key}} fail a number of times before it recovers.
	 * @param key the key
	 * @param failures how many calls fail
	 * @param status the status they fail with
	 */
	public void flap(String key, int failures, int status) {
		this.flapsLeft.put(key, new AtomicInteger(failures));
		this.flapStatus.put(key, status);
	}

	/**
	 * Use up the quota of {@code /quota/{key}}: its next request is answered 429, whichever second it comes in (a
	 * quota used up for this second only would be fresh again for a request that a loaded machine sends a moment
	 * later, in the next second).
	 * @param key the quota's key
	 */
	public void exhaustQuota(String key) {
		this.exhausted.add(key);
	}

	/**
	 * Make {@code /sms/send} answer 503 (down) or 200.
	 * @param down whether the provider is down
	 */
	public void setDown(boolean down) {
		this.down = down;
	}

	/**
	 * Name this server in the answers of {@code /sms/send}.
	 * @param name the name
	 * @return this server
	 */
	public ChaosUpstream named(String name) {
		this.name = name;
		return this;
	}

	/**
	 * Make {@code /items} answer 500 (sick) or 200 (healthy).
	 * @param sick whether the upstream is sick
	 */
	public void setSick(boolean sick) {
		this.sick = sick;
	}

	@Override
	void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			URI uri = exchange.getRequestURI();
			String[] path = uri.getPath().substring(1).split("/");
			Map<String, String> query = query(uri.getRawQuery());
			switch (path[0]) {
				case "ok" -> send(exchange, 200, "{\"ok\":true}", null);
				case "slow" -> {
					sleep(this.slowMillis);
					send(exchange, 200, "{\"slow\":true}", null);
				}
				case "hang" -> sleep(60_000);
				case "reset" -> {
					// Closing the exchange before any response headers drops the connection: no answer at all.
				}
				case "status" -> send(exchange, Integer.parseInt(path[1]),
						error(query.getOrDefault("type", "upstream_error"), "status " + path[1]), query.get("retryAfter"));
				case "flap" -> flap(exchange, path[1]);
				case "quota" -> quota(exchange, path[1]);
				case "items" -> items(exchange, path[1]);
				case "llm" -> llm(exchange, query.getOrDefault("scenario", "ok"));
				case "sms" -> {
					if (this.down) {
						send(exchange, 503, error("unavailable", "provider down"), null);
					}
					else {
						send(exchange, 200, "{\"sent\":true,\"provider\":\"" + this.name + "\"}", null);
					}
				}
				case "orders" -> {
					if ("poison".equals(path[1])) {
						send(exchange, 500, error("internal_error", "order parser crashed"), null);
					}
					else {
						send(exchange, 200, "{\"order\":\"" + path[1] + "\"}", null);
					}
				}
				default -> send(exchange, 404, error("not_found", "no such route"), null);
			}
		}
	}

	private void flap(HttpExchange exchange, String key) throws IOException {
		AtomicInteger left = this.flapsLeft.get(key);
		if (left != null && left.getAndDecrement() > 0) {
			send(exchange, this.flapStatus.get(key), error("flapping", "failing for now"), null);
		}
		else {
			send(exchange, 200, "{\"recovered\":true}", null);
		}
	}

	private void quota(HttpExchange exchange, String key) throws IOException {
		long second = System.currentTimeMillis() / 1000;
		long[] window = this.quota.compute(key,
				(k, w) -> (w == null || w[0] != second) ? new long[] { second, 1 } : new long[] { second, w[1] + 1 });
		if (this.exhausted.remove(key) || window[1] > this.quotaPerSecond) {
			send(exchange, 429, error("rate_limit_error", "slow down"), "1");
		}
		else {
			send(exchange, 200, "{\"quota\":\"ok\"}", null);
		}
	}

	private void items(HttpExchange exchange, String id) throws IOException {
		if (this.sick) {
			send(exchange, 500, error("internal_error", "database unavailable"), null);
		}
		else {
			send(exchange, 200, "{\"id\":\"" + id + "\",\"stock\":" + (id.hashCode() & 0x3f) + "}", null);
		}
	}

	private void llm(HttpExchange exchange, String scenario) throws IOException {
		switch (scenario) {
			case "invalid" -> send(exchange, 529, error("invalid_request_error", "prompt is too long"), null);
			case "overloaded" -> send(exchange, 529, error("overloaded_error", "Overloaded"), "1");
			case "capacity" -> send(exchange, 498, error("capacity_exceeded", "no capacity"), "1");
			case "cancelled" -> send(exchange, 499, error("request_cancelled", "client closed request"), null);
			case "stream-error" -> sendEvents(exchange, "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
					+ "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"text\":\"Hel\"}\n\n"
					+ "event: error\ndata: {\"type\":\"error\"," + error("overloaded_error", "Overloaded").substring(1)
					+ "\n\n");
			case "maintenance" -> send(exchange, 503, error("maintenance", "back in two minutes"), "120");
			case "slow" -> {
				sleep(1_500);
				send(exchange, 200, "{\"content\":\"slow hello\"}", null);
			}
			default -> send(exchange, 200, "{\"content\":\"hello\"}", null);
		}
	}

	/**
	 * Answer 200 with server-sent events, the way streaming LLM APIs do.
	 */
	static void sendEvents(HttpExchange exchange, String events) throws IOException {
		byte[] bytes = events.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	static String error(String type, String message) {
		return "{\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"}}";
	}

	static void send(HttpExchange exchange, int status, String body, String retryAfter) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		if (retryAfter != null) {
			exchange.getResponseHeaders().add("Retry-After", retryAfter);
		}
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static Map<String, String> query(String raw) {
		Map<String, String> query = new HashMap<>();
		if (raw != null) {
			for (String pair : raw.split("&")) {
				int eq = pair.indexOf('=');
				if (eq > 0) {
					query.put(pair.substring(0, eq), pair.substring(eq + 1));
				}
			}
		}
		return query;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
