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

package dev.triage.sample.tour;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.fleet.FleetRateLimit;
import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.fleet.FleetInstance;
import dev.triage.sample.fleet.RedisServerProcess;

/**
 * SPEC 13, played live: when a {@code redis-server} is at hand, the tour starts one on loopback and three more
 * instances of a service ({@link FleetInstance}, {@code triage.fleet.store=redis}) calling the chaos upstream.
 * One instance's {@code 429 + Retry-After} pauses all three; three instances share one rate limit. Without a
 * {@code redis-server} the rows say how to get one, and the tour goes on.
 */
public class FleetScene {

	/** The shared pause's row. */
	public static final String PAUSE = "fleet: one 429 pauses 3 instances";

	/** The fleet rate limit's row. */
	public static final String LIMIT = "fleet: one rate limit for 3";

	private static final int INSTANCES = 3;

	private static final int RETRY_AFTER_SECONDS = 60;

	private static final int CALLS_PER_INSTANCE = 5;

	private static final String SENT = "sent";

	private static final String REFUSED = "refused RATE_LIMITED";

	/** How long the row waits for the pause to reach the other instances (SPEC: within a second). */
	private static final Duration PAUSE_WAIT = Duration.ofSeconds(2);

	private final ChaosUpstream upstream;

	private final boolean enabled;

	private final String redisServer;

	/**
	 * Create the scene.
	 * @param upstream the upstream the instances call
	 * @param enabled whether to play it ({@code demo.fleet.enabled})
	 * @param redisServer the {@code redis-server} to run, blank for the first one on the PATH
	 * ({@code demo.fleet.redis-server})
	 */
	public FleetScene(ChaosUpstream upstream, boolean enabled, String redisServer) {
		this.upstream = upstream;
		this.enabled = enabled;
		this.redisServer = redisServer;
	}

	/**
	 * Play the scene.
	 * @return its rows, played, failed or skipped
	 */
	public List<Row> play() {
		if (!this.enabled) {
			return skipped("demo.fleet.enabled=false", "--demo.fleet.enabled=true, with a redis-server");
		}
		File binary = RedisServerProcess.find(this.redisServer);
		if (binary == null) {
			return skipped((this.redisServer == null || this.redisServer.isBlank()) ? "no redis-server on the PATH"
					: "demo.fleet.redis-server=" + this.redisServer + " is not an executable file",
					RedisServerProcess.HOW_TO_GET_IT);
		}
		List<Row> rows = new ArrayList<>();
		try (RedisServerProcess redis = RedisServerProcess.start(binary)) {
			List<FleetInstance> fleet = new ArrayList<>();
			try {
				for (int i = 0; i < INSTANCES; i++) {
					fleet.add(FleetInstance.start(redis.port(), this.upstream.url()));
				}
				rows.add(pauseRow(fleet));
				rows.add(limitRow(fleet));
			}
			finally {
				for (int i = fleet.size() - 1; i >= 0; i--) {
					fleet.get(i).close();
				}
			}
		}
		catch (Exception ex) {
			String problem = "the fleet did not run: " + ex;
			for (String scenario : List.of(PAUSE, LIMIT)) {
				if (rows.stream().noneMatch((row) -> row.scenario().equals(scenario))) {
					rows.add(new Row(scenario, "-", "-", 0, Duration.ZERO, "-", "no", "-", List.of(problem)));
				}
			}
		}
		return rows;
	}

	/**
	 * Instance 1 gets {@code 429 + Retry-After: 60}; once the announcement reaches instances 2 and 3 (polled, at
	 * most {@link #PAUSE_WAIT}), their calls are refused {@code PAUSED} without reaching the wire.
	 */
	private Row pauseRow(List<FleetInstance> fleet) {
		int before = this.upstream.requests();
		long start = System.nanoTime();
		Outcome first = attempt(
				() -> fleet.get(0).sms().status(429, RETRY_AFTER_SECONDS, "rate_limit_error"));
		long answered = System.nanoTime();
		long[] arrived = new long[INSTANCES];
		long deadline = answered + PAUSE_WAIT.toNanos();
		int waiting = INSTANCES - 1;
		while (waiting > 0 && System.nanoTime() < deadline) {
			waiting = 0;
			for (int i = 1; i < INSTANCES; i++) {
				if (arrived[i] == 0 && fleet.get(i).pause("fleet-sms").isPaused()) {
					arrived[i] = System.nanoTime();
				}
				waiting += (arrived[i] == 0) ? 1 : 0;
			}
			if (waiting > 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
		}
		List<Outcome> others = new ArrayList<>();
		for (int i = 1; i < INSTANCES; i++) {
			FleetInstance instance = fleet.get(i);
			others.add(attempt(() -> instance.sms().send()));
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		int wire = this.upstream.requests() - before;

		List<String> problems = new ArrayList<>();
		if (!(first.thrown() instanceof UpstreamResponseException response) || response.response().status() != 429) {
			problems.add("instance 1 should get the 429, got " + first.describe());
		}
		StringBuilder got = new StringBuilder();
		boolean allPaused = true;
		for (int i = 1; i < INSTANCES; i++) {
			Outcome other = others.get(i - 1);
			boolean paused = other.thrown() instanceof UpstreamUnavailableException refused
					&& refused.refusal() == Refusal.PAUSED;
			allPaused &= paused && arrived[i] != 0;
			if (arrived[i] == 0) {
				problems.add("the pause did not reach instance " + (i + 1) + " within " + PAUSE_WAIT.toMillis() + "ms");
			}
			if (!paused) {
				problems.add("instance " + (i + 1) + " should be refused PAUSED, got " + other.describe());
			}
			got.append((i == 1) ? "" : ", ").append("instance ").append(i + 1).append(": ")
				.append(paused ? "refused PAUSED" : other.describe())
				.append(" (pause ").append(arrivedIn(arrived[i], answered)).append(')');
		}
		if (allPaused) {
			got.setLength(0);
			got.append("instances 2 and 3 refused PAUSED locally (the pause reached them in ");
			for (int i = 1; i < INSTANCES; i++) {
				got.append((i == 1) ? "" : " / ").append(arrivedIn(arrived[i], answered));
			}
			got.append(')');
		}
		if (wire != 1) {
			problems.add("only instance 1's request should reach the upstream, " + wire + " did");
		}
		return new Row(PAUSE, "instance 1 got 429 + Retry-After: " + RETRY_AFTER_SECONDS,
				allPaused ? "refused paused" : "-", wire, waited, fleet.get(0).breaker("fleet-sms"), "no",
				wire + ((wire == 1) ? " request" : " requests") + " reached the upstream; " + got, problems);
	}

	/**
	 * The three instances together send 15 calls at once to a client with a fleet rate limit (5 per 10s): the
	 * upstream sees what one limit allows (plus, at most, the permits leased and not yet used: SPEC 13), the rest
	 * are refused {@code RATE_LIMITED} without reaching it.
	 */
	private Row limitRow(List<FleetInstance> fleet) throws Exception {
		String prefix = "triage.clients.fleet-quota.fleet-rate-limit.";
		int limit = fleet.get(0).setting(prefix + "limit-for-period", Integer.class);
		Duration period = fleet.get(0).setting(prefix + "limit-refresh-period", Duration.class);
		Integer leaseSetting = fleet.get(0).setting(prefix + "lease", Integer.class);
		int lease = (leaseSetting != null) ? leaseSetting : FleetRateLimit.Settings.defaultLease(limit);
		int calls = INSTANCES * CALLS_PER_INSTANCE;
		int before = this.upstream.requests();
		List<Map<String, Integer>> tallies = new ArrayList<>();
		ExecutorService callers = Executors.newFixedThreadPool(INSTANCES);
		long start = System.nanoTime();
		try {
			List<Future<Map<String, Integer>>> running = new ArrayList<>();
			for (FleetInstance instance : fleet) {
				running.add(callers.submit(() -> {
					Map<String, Integer> tally = new TreeMap<>();
					for (int i = 0; i < CALLS_PER_INSTANCE; i++) {
						Outcome outcome = attempt(() -> instance.quota().send());
						String what = (outcome.thrown() == null) ? SENT
								: (outcome.thrown() instanceof UpstreamUnavailableException refused
										&& refused.refusal() == Refusal.RATE_LIMITED) ? REFUSED : outcome.describe();
						tally.merge(what, 1, Integer::sum);
					}
					return tally;
				}));
			}
			for (Future<Map<String, Integer>> caller : running) {
				tallies.add(caller.get(60, TimeUnit.SECONDS));
			}
		}
		finally {
			callers.shutdownNow();
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		int wire = this.upstream.requests() - before;
		long periods = Math.max(1, (waited.toNanos() + period.toNanos() - 1) / period.toNanos());
		long bound = limit * periods + (long) INSTANCES * lease;

		int sent = 0;
		int refused = 0;
		Map<String, Integer> other = new TreeMap<>();
		StringBuilder perInstance = new StringBuilder();
		for (Map<String, Integer> tally : tallies) {
			sent += tally.getOrDefault(SENT, 0);
			refused += tally.getOrDefault(REFUSED, 0);
			tally.forEach((what, count) -> {
				if (!what.equals(SENT) && !what.equals(REFUSED)) {
					other.merge(what, count, Integer::sum);
				}
			});
			perInstance.append((perInstance.length() > 0) ? "/" : "").append(tally.getOrDefault(SENT, 0));
		}
		List<String> problems = new ArrayList<>();
		if (wire > bound) {
			problems.add("the fleet limit allows at most " + bound + " (" + limit + " x " + periods + " period(s) + "
					+ INSTANCES + " x lease " + lease + "), " + wire + " reached the upstream");
		}
		if (wire == 0) {
			problems.add("no call got a permit");
		}
		if (refused == 0) {
			problems.add(calls + " calls against a shared limit of " + limit + ": none was refused");
		}
		if (!other.isEmpty()) {
			problems.add("every call should be sent or refused RATE_LIMITED, also got " + other);
		}
		if (sent != wire) {
			problems.add(sent + " calls succeeded but " + wire + " requests reached the upstream");
		}
		for (int i = 0; i < fleet.size(); i++) {
			if (!fleet.get(i).connected()) {
				problems.add("instance " + (i + 1) + " lost Redis and fell back to its local share");
			}
		}
		return new Row(LIMIT, calls + " calls from " + INSTANCES + " instances, 200 to all",
				(refused > 0) ? "refused rate_limited" : "-", wire, waited, fleet.get(0).breaker("fleet-quota"), "no",
				refused + " refused RATE_LIMITED; sent by instance 1/2/3: " + perInstance + " (limit " + limit
						+ " per " + text(period) + " for the fleet, lease " + lease + ")",
				problems);
	}

	private static String arrivedIn(long arrived, long answered) {
		return (arrived != 0) ? TimeUnit.NANOSECONDS.toMillis(arrived - answered) + "ms"
				: "not there after " + PAUSE_WAIT.toMillis() + "ms";
	}

	private static String text(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	private static List<Row> skipped(String reason, String howToPlay) {
		return List.of(Row.skipped(PAUSE, reason, howToPlay), Row.skipped(LIMIT, reason, howToPlay));
	}

	private static Outcome attempt(Callable<Object> call) {
		try {
			return new Outcome(call.call(), null);
		}
		catch (Throwable ex) {
			return new Outcome(null, ex);
		}
	}

	private record Outcome(Object result, Throwable thrown) {

		String describe() {
			return Tour.describe(this.result, this.thrown);
		}

	}

}
