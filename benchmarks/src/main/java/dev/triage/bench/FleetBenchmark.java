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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import dev.triage.fleet.FleetRateLimit;
import dev.triage.fleet.FleetStore;
import dev.triage.fleet.LocalRateLimit;
import dev.triage.fleet.SharedPauses;
import dev.triage.overload.Pause;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The fleet's cost against a local {@code redis-server} (docs/benchmarks.md, docs/fleet.md): how long a pause
 * one instance learns takes to reach another (pub/sub), and what the fleet rate limit adds per attempt (Redis
 * round trips and latency, p50/p99) at {@code lease} 1 and at the default lease. Run:
 * {@code java -cp benchmarks/target/benchmarks.jar dev.triage.bench.FleetBenchmark}; needs redis-server on
 * the PATH, starts its own on a free loopback port.
 */
public final class FleetBenchmark {

	private FleetBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Path log = Files.createTempFile("triage-bench-redis", ".log");
		Process redis = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no").redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			awaitPort(port);
			System.out.println("redis-server on 127.0.0.1:" + port + ", " + Runtime.getRuntime().availableProcessors()
					+ " CPUs");
			pausePropagation(port, 200);
			rateLimit(port, 1, 20_000);
			rateLimit(port, FleetRateLimit.Settings.defaultLease(2_000), 20_000);
		}
		finally {
			redis.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			Files.deleteIfExists(log);
		}
		System.exit(0);
	}

	/**
	 * Two instances (each its own connection, store and pauses); one learns a pause, the time until the other
	 * refuses is measured. The pause grows each round, as a later Retry-After extends it.
	 */
	private static void pausePropagation(int port, int rounds) throws Exception {
		LettuceConnectionFactory first = connection(port);
		LettuceConnectionFactory second = connection(port);
		try (FleetStore storeA = store(first); FleetStore storeB = store(second);
				SharedPauses a = new SharedPauses(storeA); SharedPauses b = new SharedPauses(storeB)) {
			Pause learner = a.create("sms", "primary", Clock.systemUTC());
			Pause other = b.create("sms", "primary", Clock.systemUTC());
			a.start();
			b.start();
			awaitConnected(storeA);
			awaitConnected(storeB);
			long[] nanos = new long[rounds];
			for (int i = 0; i < rounds; i++) {
				java.time.Instant before = other.until();
				long start = System.nanoTime();
				learner.pauseFor(Duration.ofSeconds(60 + i));
				while (java.util.Objects.equals(other.until(), before)) {
					Thread.onSpinWait();
				}
				nanos[i] = System.nanoTime() - start;
				Thread.sleep(5);
			}
			Arrays.sort(nanos);
			System.out.printf(Locale.ROOT, "pause propagation (%d rounds): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
					rounds, ms(nanos, 0.50), ms(nanos, 0.99), nanos[rounds - 1] / 1e6);
		}
		finally {
			first.destroy();
			second.destroy();
		}
	}

	/**
	 * One instance takes permits from a bucket large enough never to refuse: latency per acquire and Redis
	 * round trips per attempt, after a warm-up.
	 */
	private static void rateLimit(int port, int lease, int attempts) throws Exception {
		LettuceConnectionFactory connection = connection(port);
		try (FleetStore store = store(connection)) {
			FleetRateLimit.Settings settings = new FleetRateLimit.Settings(1_000_000, Duration.ofSeconds(1), lease);
			FleetRateLimit limit = new FleetRateLimit("sms-" + lease, settings, store,
					new LocalRateLimit("sms", 1, Duration.ofSeconds(1), System::nanoTime));
			for (int i = 0; i < attempts; i++) {
				limit.acquire();
			}
			awaitConnected(store);
			long[] nanos = new long[attempts];
			long scriptsBefore = scripts(port);
			long errorsBefore = store.errors();
			long started = System.nanoTime();
			int granted = 0;
			for (int i = 0; i < attempts; i++) {
				long start = System.nanoTime();
				if (limit.acquire()) {
					granted++;
				}
				nanos[i] = System.nanoTime() - start;
			}
			long elapsed = System.nanoTime() - started;
			long scripts = scripts(port) - scriptsBefore;
			Arrays.sort(nanos);
			System.out.printf(Locale.ROOT,
					"fleet rate limit, lease %d: %d/%d granted in %.0f ms, %.3f Redis round trips per attempt, "
							+ "acquire p50 %.1f us, p99 %.1f us, max %.1f us (late or failed commands: %d)%n",
					lease, granted, attempts, elapsed / 1e6, scripts / (double) attempts, ms(nanos, 0.50) * 1000,
					ms(nanos, 0.99) * 1000, nanos[attempts - 1] / 1e3, store.errors() - errorsBefore);
		}
		finally {
			connection.destroy();
		}
	}

	/**
	 * A timeout of 1 s rather than the default 50 ms: on a loaded machine a late answer would make the limit
	 * fall back to the local share, and this measures Redis, not the fallback.
	 */
	private static FleetStore store(LettuceConnectionFactory connection) {
		return new FleetStore(connection, "triage:bench:", Duration.ofSeconds(1), Duration.ofSeconds(1));
	}

	private static void awaitConnected(FleetStore store) throws InterruptedException {
		while (!store.connected()) {
			Thread.sleep(50);
		}
	}

	/** The scripts Redis ran so far (EVAL and EVALSHA), from INFO commandstats. */
	private static long scripts(int port) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.getOutputStream().write("INFO commandstats\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			java.io.InputStream in = socket.getInputStream();
			StringBuilder header = new StringBuilder();
			int c;
			while ((c = in.read()) != '\n') {
				header.append((char) c);
			}
			int length = Integer.parseInt(header.toString().trim().substring(1));
			String stats = new String(in.readNBytes(length), java.nio.charset.StandardCharsets.US_ASCII);
			long calls = 0;
			for (String line : stats.split("\r\n")) {
				if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
					calls += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
				}
			}
			return calls;
		}
	}

	private static LettuceConnectionFactory connection(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static double ms(long[] sorted, double quantile) {
		return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
	}

	private static void awaitPort(int port) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
				return;
			}
			catch (IOException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				Thread.sleep(20);
			}
		}
	}

}
