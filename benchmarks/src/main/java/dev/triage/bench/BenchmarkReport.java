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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.triage.UpstreamException;
import dev.triage.engine.ClientRuntime;
import dev.triage.feign.DecisionPathBenchmark;
import dev.triage.policy.PolicyTable;
import feign.hc5.ApacheHttp5Client;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs every benchmark of this module, then the failure-mode figures over loopback, and writes
 * {@code docs/benchmarks.md} (or the path given as the only argument): the table, the machine, the date and the
 * command. Absolute times are noise on a shared 2-core machine; the ratios measured in one run are what to read.
 */
public final class BenchmarkReport {

	static final String USAGE = """
			Usage: java -jar benchmarks/target/benchmarks.jar [OUTPUT]
			Runs every benchmark, then the loopback comparison three times, each in a JVM of its own
			(-Dbench.runs=N; -Dbench.* and -Dtriage.* properties are passed on to those JVMs), and writes
			the report to OUTPUT (default: docs/benchmarks.md). Takes about half an hour.
			  -h, --help  print this help and exit""";

	/**
	 * How many times the loopback comparison runs (each in a JVM of its own, with its own warm-up): a ratio is
	 * only reported as the median over the runs' medians, never one run's.
	 */
	static final int LOOPBACK_RUNS = Integer.getInteger("bench.runs", 3);

	private static final Path DEFAULT_OUTPUT = Path.of("docs", "benchmarks.md");

	private BenchmarkReport() {
	}

	public static void main(String[] args) throws Exception {
		Path out;
		try {
			out = output(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.println(USAGE);
			System.exit(2);
			return;
		}
		if (out == null) {
			System.out.println(USAGE);
			return;
		}
		String calls = CallBenchmark.class.getSimpleName() + "|" + RestClientBenchmark.class.getSimpleName();
		Map<String, Row> one = run(calls, 1);
		Map<String, Row> two = run(calls, 2);
		Map<String, Row> other = run(ErrorTypeBenchmark.class.getSimpleName() + "|" + OverloadBenchmark.class.getSimpleName()
				+ "|" + DecisionPathBenchmark.class.getSimpleName() + "|" + EngineBenchmark.class.getSimpleName(), 1);
		List<String> failureModes = failureModes();
		List<LoopbackComparison.Comparison> runs = new ArrayList<>();
		for (int run = 1; run <= LOOPBACK_RUNS; run++) {
			System.out.println("loopback comparison: run " + run + " of " + LOOPBACK_RUNS);
			runs.add(LoopbackComparison.forked());
		}
		Files.createDirectories(out.toAbsolutePath().getParent());
		String kept = Files.exists(out) ? kept(Files.readString(out)) : "";
		Files.writeString(out, render(one, two, other, failureModes, runs) + kept);
		System.out.println("Wrote " + out.toAbsolutePath());
	}

	/**
	 * The line after which the report holds what was measured apart (a profile, the fleet against redis-server):
	 * written by hand, kept when the report is written again.
	 */
	static final String KEPT = "<!-- Measured apart from this report; kept when it is regenerated. -->";

	/**
	 * What a report written again keeps of the one it replaces: everything from the {@link #KEPT} line on, after a
	 * blank line; nothing when it has no such line.
	 * @param previous the report being replaced
	 * @return the part to append, or an empty string
	 */
	static String kept(String previous) {
		int at = previous.indexOf(KEPT);
		return (at < 0) ? "" : "\n" + previous.substring(at);
	}

	/**
	 * The report's path from the command line, or {@code null} when help was asked for. An option this writer
	 * does not know is refused rather than taken for a file name.
	 * @param args the command line
	 * @return the path to write, or {@code null} for {@code -h} and {@code --help}
	 * @throws IllegalArgumentException for an unknown option or more than one path
	 */
	static Path output(String... args) {
		Path out = null;
		for (String arg : args) {
			if (arg.equals("-h") || arg.equals("--help")) {
				return null;
			}
			if (arg.startsWith("-")) {
				throw new IllegalArgumentException("Unknown option '" + arg + "'");
			}
			if (out != null) {
				throw new IllegalArgumentException("One output path expected, got '" + out + "' and '" + arg + "'");
			}
			out = Path.of(arg);
		}
		return (out != null) ? out : DEFAULT_OUTPUT;
	}

	private static Map<String, Row> run(String include, int threads) throws RunnerException {
		Options options = new OptionsBuilder().include(include)
			.forks(1)
			.threads(threads)
			.warmupIterations(3)
			.warmupTime(TimeValue.seconds(1))
			.measurementIterations(5)
			.measurementTime(TimeValue.seconds(1))
			.addProfiler(GCProfiler.class)
			.build();
		Map<String, Row> rows = new LinkedHashMap<>();
		for (RunResult result : new Runner(options).run()) {
			String name = result.getParams().getBenchmark();
			name = name.substring(name.lastIndexOf('.') + 1);
			Result<?> primary = result.getPrimaryResult();
			Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
			Statistics statistics = primary.getStatistics();
			boolean sampled = result.getParams().getMode() == Mode.SampleTime;
			rows.put(name, new Row(primary.getScore(), primary.getScoreError(), (alloc != null) ? alloc.getScore() : -1,
					sampled ? statistics.getPercentile(50) : Double.NaN, sampled ? statistics.getPercentile(99) : Double.NaN));
		}
		return rows;
	}

	/**
	 * What reaches the wire per logical call when an upstream fails, Triage-managed Feign on Apache HttpClient 5
	 * (its own retries off, as Triage wires it) over loopback: 100% 503 with the breaker on, with the breaker
	 * held closed (the retry budget alone), and 10% random 500s.
	 */
	private static List<String> failureModes() throws IOException {
		List<String> lines = new ArrayList<>();
		int calls = 2_000;
		PolicyTable defaults = PolicyTable.defaults();
		lines.add(figure("100% 503, breaker on (defaults)", 1.0, calls, Fixtures.runtime(defaultBreaker(), defaults), 503));
		lines.add(figure("100% 503, breaker held closed: the retry budget alone", 1.0, calls,
				Fixtures.runtime(Fixtures.neverOpening(), defaults), 503));
		lines.add(figure("10% random 500, breaker held closed", 0.1, calls,
				Fixtures.runtime(Fixtures.neverOpening(), defaults), 500));
		return lines;
	}

	private static CircuitBreaker defaultBreaker() {
		return CircuitBreaker.of("bench-default", dev.triage.breaker.UpstreamBreakers.DEFAULTS);
	}

	private static String figure(String scenario, double failureShare, int calls, ClientRuntime runtime, int status)
			throws IOException {
		LoopbackUpstream.Answer ok = new LoopbackUpstream.Answer(200, null, "\"ok\"".getBytes(StandardCharsets.UTF_8));
		LoopbackUpstream.Answer failed = new LoopbackUpstream.Answer(status, "Retry-After: 0\r\n", Fixtures.JSON_404);
		try (LoopbackUpstream upstream = new LoopbackUpstream(
				(path) -> (ThreadLocalRandom.current().nextDouble() < failureShare) ? failed : ok)) {
			Fixtures.Api api = Fixtures.triage(new ApacheHttp5Client(HttpClients.custom().disableAutomaticRetries().build()),
					runtime, upstream.url());
			long start = System.nanoTime();
			int succeeded = 0;
			for (int i = 0; i < calls; i++) {
				try {
					api.item();
					succeeded++;
				}
				catch (UpstreamException ex) {
					// counted below: what the caller got is the share of successes
				}
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			return String.format(Locale.ROOT, "| %s | %d | %.0f | %d | %.2f | %.1f%% |", scenario, calls, calls / seconds,
					upstream.requests(), upstream.requests() / (double) calls, 100.0 * succeeded / calls);
		}
	}

	private static String render(Map<String, Row> one, Map<String, Row> two, Map<String, Row> other,
			List<String> failureModes, List<LoopbackComparison.Comparison> runs) {
		LoopbackComparison.Comparison loopback = runs.get(runs.size() - 1);
		StringBuilder md = new StringBuilder();
		md.append("# Triage benchmarks\n\n");
		md.append("Generated by `").append(COMMAND).append("` on ").append(LocalDate.now()).append(", ")
			.append(Runtime.getRuntime().availableProcessors()).append(" CPUs, Java ")
			.append(System.getProperty("java.version")).append(" (").append(System.getProperty("java.vm.name"))
			.append("), ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch"))
			.append(".\n\nAbsolute times on a shared 2-core machine are noise; read the ratios, measured in the same run.\n\n");
		md.append("## Over loopback: Triage next to what teams wire instead\n\n");
		md.append("The same interface against one upstream on 127.0.0.1 (a minimal keep-alive HTTP/1.1 server), six "
				+ "ways: plain Feign on Apache HttpClient 5 (no retryer), Spring Cloud OpenFeign on HC5 (the baseline, "
				+ "1.00), Spring Cloud OpenFeign with Spring Cloud CircuitBreaker on Resilience4j (its shipped defaults: "
				+ "a thread-pool bulkhead and a 1 s time limiter; the breaker held closed for the 503), and Triage "
				+ "(its defaults, call log at its default level, INFO, which writes one line per client and code or "
				+ "reason every 10 s; only the 503 row runs a second application with one attempt for the 503, the "
				+ "breaker held closed, throttling and poison detection off and the call log's WARN line per 503 off, "
				+ "and the first refusal row runs with the call log off), and the same "
				+ "interface as a Spring HTTP service client (`@HttpExchange` on a `RestClient` from Spring Boot's "
				+ "`RestClient.Builder`, on HC5), plain and managed by Triage with the same settings "
				+ "(`TriageHttpServices.createClient`). Each cell: the median ratio to Spring Cloud "
				+ "OpenFeign over ").append(LoopbackComparison.ROUNDS).append(" rounds (min–max), after ")
			.append(LoopbackComparison.WARM_UP_ROUNDS).append(" warm-up rounds. In a round, per scenario and thread "
					+ "count, each caller thread gives the contenders turns of ")
			.append(LoopbackComparison.TURN_NANOS / 1_000_000).append(" ms in turn (the order rotated each round) until "
					+ "each has called for about ").append(LoopbackComparison.SLICE_NANOS / 1_000_000)
			.append(" ms, so that all of them call under the same moment-to-moment conditions of a shared machine; "
					+ "a contender's figure for the round is its median call (a stall of the machine lands on whichever "
					+ "contender is calling and would move a mean), and the ratio compares medians of the same round. "
					+ "The 503 row runs each contender alone for that time, in the last ")
			.append(LoopbackComparison.FAILED_ROUNDS).append(" rounds only, with means. For the open breaker the baseline is Spring Cloud "
					+ "CircuitBreaker's refusal. The table is the last of ").append(runs.size())
			.append(" runs, each in a JVM of its own (the same code's ratios move more from one JVM to the next than "
					+ "within one); the one after it gives every run's medians for Triage.\n\n");
		loopback.table().forEach((line) -> md.append(line).append('\n'));
		md.append(acrossRuns(runs));
		md.append("\nThe 503 row is not a cost comparison: Apache HttpClient 5's default retry strategy, which Spring Cloud "
				+ "OpenFeign and plain Feign leave on, sends a 503 again after one second (2 requests per call); "
				+ "Spring Cloud CircuitBreaker's time limiter gives up on that call after one second (1 request on the "
				+ "wire, a timeout to the caller). Triage switches those hidden retries off and lets its table decide. "
				+ "The cost of a failed attempt is in the in-memory figures below.\n\n");
		md.append("## Whole calls in memory (Feign on an in-memory client, JMH)\n\n");
		md.append("JMH, 1 fork, 3 × 1s warm-up, 5 × 1s measurement, `-prof gc`.\n\n");
		md.append("| path | threads | plain Feign ns/op | Triage ns/op | ratio | plain B/op | Triage B/op |\n");
		md.append("|---|---|---|---|---|---|---|\n");
		pair(md, "200 + String decode", "1", one.get("ok200Plain"), one.get("ok200Triage"));
		pair(md, "200 + String decode", "2", two.get("ok200Plain"), two.get("ok200Triage"));
		pair(md, "404 with a JSON error body", "1", one.get("notFound404Plain"), one.get("notFound404Triage"));
		pair(md, "404 with a JSON error body", "2", two.get("notFound404Plain"), two.get("notFound404Triage"));
		md.append("\n| path | threads | ns/op | B/op |\n|---|---|---|---|\n");
		single(md, "one failed 503 attempt, whole Feign call", "1", one.get("failed503Triage"));
		single(md, "refusal by an open breaker, whole call (Triage)", "1", one.get("openBreakerTriage"));
		single(md, "refusal by an open breaker (Resilience4j alone, CallNotPermittedException)", "1",
				one.get("openBreakerResilience4jAlone"));
		single(md, "refusal by an open breaker, whole call (Triage)", "2", two.get("openBreakerTriage"));
		md.append("\n## Whole calls in memory (an `@HttpExchange` interface on a `RestClient`, in-memory request factory, JMH)\n\n");
		md.append("| path | threads | plain RestClient ns/op | Triage ns/op | ratio | plain B/op | Triage B/op |\n");
		md.append("|---|---|---|---|---|---|---|\n");
		pair(md, "200 + String body", "1", one.get("ok200PlainRestClient"), one.get("ok200TriageRestClient"));
		pair(md, "200 + String body", "2", two.get("ok200PlainRestClient"), two.get("ok200TriageRestClient"));
		pair(md, "404 with a JSON error body", "1", one.get("notFound404PlainRestClient"),
				one.get("notFound404TriageRestClient"));
		pair(md, "404 with a JSON error body", "2", two.get("notFound404PlainRestClient"),
				two.get("notFound404TriageRestClient"));
		Row sampled = one.get("openBreakerTriageSampled");
		md.append(String.format(Locale.ROOT, "\nRefusal by an open breaker, sampled call by call: p50 %.2f µs, p99 %.2f µs.\n",
				sampled.p50() / 1000, sampled.p99() / 1000));
		md.append("\n## Decision paths (JMH, 1 thread)\n\n| path | ns/op | B/op |\n|---|---|---|\n");
		single3(md, "a 2xx attempt outside Feign: in-memory client alone, body read", other.get("success2xxClientAlone"));
		single3(md, "a 2xx attempt outside Feign: Triage around it (context, wrapper, breaker, observers)",
				other.get("success2xx"));
		single3(md, "one failed 503 attempt outside Feign: in-memory client alone", other.get("failed503ClientAlone"));
		single3(md, "one failed 503 attempt outside Feign: Triage (classify, rule, OriginalResponse, exception, breaker, "
				+ "meters, decision)", other.get("failed503"));
		single3(md, "error type, 64 KiB JSON body, type first: streaming (Triage)", other.get("streaming64k"));
		single3(md, "error type, 64 KiB JSON body: Jackson tree of the whole body (before)", other.get("jacksonTree64k"));
		single3(md, "the engine alone, a 2xx call of one attempt (admission, bound, settlement, report; nothing sent)",
				other.get("engine2xx"));
		single3(md, "the engine alone, a failed 503 attempt that is retried (admission, body capture, classification, "
				+ "record, exception, retry decision; no wait)", other.get("engine503Retried"));
		single3(md, "overload checks of a successful attempt (pause, throttle, budget, no limiter)",
				other.get("overloadChecks"));
		single3(md, "Resilience4j breaker permission + success record (for scale)", other.get("breakerPermissionAndSuccess"));
		md.append("\n## Failure modes over loopback (Triage-managed Feign on HC5, `Retry-After: 0`)\n\n");
		md.append("| scenario | logical calls | calls/s | requests on the wire | per call | calls that succeeded |\n");
		md.append("|---|---|---|---|---|---|\n");
		failureModes.forEach((line) -> md.append(line).append('\n'));
		md.append("\nWithout Triage's budget and breaker, 100% 503 with the default table sends 3 requests per call. The "
				+ "budget allows 20% of first attempts plus a reserve of 10 retries per second.\n");
		md.append(targets(one, two, other, runs));
		return md.toString();
	}

	/**
	 * Triage's median ratios of every run, and their median: one run's median moves with what else the machine
	 * did during it.
	 */
	private static String acrossRuns(List<LoopbackComparison.Comparison> runs) {
		StringBuilder md = new StringBuilder("\n| Triage's median ratio, 1 / 2 threads |");
		StringBuilder rule = new StringBuilder("|---|");
		for (int run = 1; run <= runs.size(); run++) {
			md.append(" run ").append(run).append(" |");
			rule.append("---|");
		}
		md.append(" median of the runs |\n").append(rule).append("---|\n");
		for (LoopbackComparison.Scenario scenario : List.of(LoopbackComparison.Scenario.OK_200,
				LoopbackComparison.Scenario.NOT_FOUND_404)) {
			acrossRuns(md, "Triage ÷ Spring Cloud OpenFeign, " + scenario.label, runs,
					(run) -> run.triageMedians().get(scenario));
			acrossRuns(md, "Triage RestClient ÷ plain RestClient, " + scenario.label, runs,
					(run) -> run.restClientMedians().get(scenario));
		}
		return md.toString();
	}

	private static void acrossRuns(StringBuilder md, String label, List<LoopbackComparison.Comparison> runs,
			java.util.function.Function<LoopbackComparison.Comparison, double[]> medians) {
		md.append("| ").append(label).append(" |");
		for (LoopbackComparison.Comparison run : runs) {
			double[] m = medians.apply(run);
			md.append(String.format(Locale.ROOT, " %.2f / %.2f |", m[0], m[1]));
		}
		double[] m = acrossRuns(runs, medians);
		md.append(String.format(Locale.ROOT, " %.2f / %.2f |\n", m[0], m[1]));
	}

	/**
	 * The median over the runs of a [1 thread, 2 threads] median pair.
	 */
	static double[] acrossRuns(List<LoopbackComparison.Comparison> runs,
			java.util.function.Function<LoopbackComparison.Comparison, double[]> medians) {
		return new double[] { LoopbackComparison.median(runs.stream().mapToDouble((r) -> medians.apply(r)[0]).toArray()),
				LoopbackComparison.median(runs.stream().mapToDouble((r) -> medians.apply(r)[1]).toArray()) };
	}

	/**
	 * The targets of the performance issue, each met or not in this run.
	 */
	private static String targets(Map<String, Row> one, Map<String, Row> two, Map<String, Row> other,
			List<LoopbackComparison.Comparison> runs) {
		LoopbackComparison.Comparison loopback = runs.get(runs.size() - 1);
		StringBuilder md = new StringBuilder("\n## Targets\n\n| target | this run | met |\n|---|---|---|\n");
		String ofRuns = " (median of " + runs.size() + " runs' medians)";
		double[] ok = acrossRuns(runs, (run) -> run.triageMedians().get(LoopbackComparison.Scenario.OK_200));
		target(md, "200 decoded by Jackson over loopback, Triage with its defaults, median ratio to Spring Cloud OpenFeign ≤ 1.05 at 1 and 2 threads"
				+ ofRuns, String.format(Locale.ROOT, "%.2f / %.2f", ok[0], ok[1]), ok[0] <= 1.05 && ok[1] <= 1.05);
		double[] notFound = acrossRuns(runs,
				(run) -> run.triageMedians().get(LoopbackComparison.Scenario.NOT_FOUND_404));
		target(md, "404 with a JSON error body over loopback, Triage with its defaults (call log on), median ratio to Spring Cloud OpenFeign "
				+ "≤ 1.05 at 1 and 2 threads" + ofRuns, String.format(Locale.ROOT, "%.2f / %.2f", notFound[0], notFound[1]),
				notFound[0] <= 1.05 && notFound[1] <= 1.05);
		double[] rest200 = acrossRuns(runs,
				(run) -> run.restClientMedians().get(LoopbackComparison.Scenario.OK_200));
		double[] rest404 = acrossRuns(runs,
				(run) -> run.restClientMedians().get(LoopbackComparison.Scenario.NOT_FOUND_404));
		target(md, "Triage RestClient over loopback, median ratio to plain RestClient on HC5 ≤ 1.05 (200 and 404, 1 and 2 "
				+ "threads)" + ofRuns, String.format(Locale.ROOT, "200: %.2f / %.2f, 404: %.2f / %.2f", rest200[0], rest200[1],
						rest404[0], rest404[1]),
				rest200[0] <= 1.05 && rest200[1] <= 1.05 && rest404[0] <= 1.05 && rest404[1] <= 1.05);
		Row engineOk = other.get("engine2xx");
		target(md, "a 2xx through the engine in memory ≤ 300 ns, ≤ 400 B", String.format(Locale.ROOT, "%.0f ns, %.0f B",
				engineOk.score(), engineOk.bytes()), engineOk.score() <= 300 && engineOk.bytes() <= 400);
		Row engineRetried = other.get("engine503Retried");
		target(md, "a failed 503 attempt that is retried, through the engine in memory ≤ 800 ns, ≤ 1.5 KB",
				String.format(Locale.ROOT, "%.0f ns, %.0f B", engineRetried.score(), engineRetried.bytes()),
				engineRetried.score() <= 800 && engineRetried.bytes() <= 1536);
		differenceTarget(md, "one failed 503 attempt in memory, Triage's part ≤ 800 ns, ≤ 1.5 KB", other.get("failed503"),
				other.get("failed503ClientAlone"), 800, 1536);
		differenceTarget(md, "all Triage does for a 2xx outside Feign ≤ 150 ns, ≤ 64 B", other.get("success2xx"),
				other.get("success2xxClientAlone"), 150, 64);
		differenceTarget(md, "whole 200 call in memory, Triage − plain Feign ≤ +150 ns, ≤ +128 B", one.get("ok200Triage"),
				one.get("ok200Plain"), 150, 128);
		Row refusal = one.get("openBreakerTriageSampled");
		target(md, "refusal by an open breaker, call log off, p50 ≤ 2 µs, p99 ≤ 5 µs", String.format(Locale.ROOT,
				"%.2f / %.2f µs", refusal.p50() / 1000, refusal.p99() / 1000), refusal.p50() <= 2000 && refusal.p99() <= 5000);
		double[] logged = loopback.triageRefusalPercentiles();
		target(md, "refusal by an open breaker over loopback, call log on (default logging), the caller's whole call, "
				+ "p50 ≤ 2 µs, p99 ≤ 5 µs", String.format(Locale.ROOT, "%.2f / %.2f µs", logged[0] / 1000,
						logged[1] / 1000), logged[0] <= 2000 && logged[1] <= 5000);
		Row type = other.get("streaming64k");
		target(md, "error type from a 64 KiB body, type first ≤ 1 µs", String.format(Locale.ROOT, "%.2f µs, %.0f B",
				type.score() / 1000, type.bytes()), type.score() <= 1000);
		Row checks = other.get("overloadChecks");
		target(md, "overload checks (budget, throttle, pause, no limiter) within the 2xx decision-path target (≤ 150 ns)",
				String.format(Locale.ROOT, "%.0f ns, %.0f B", checks.score(), checks.bytes()), checks.score() <= 150);
		md.append(GAPS);
		return md.toString();
	}

	/**
	 * What is known to cost what where a target is missed; kept with the code so the table and its explanation
	 * change together (measured with JMH's {@code -prof gc} and JFR allocation samples on this module).
	 */
	static final String GAPS = """

			Where the time and bytes of a 2xx go, outside Feign (the 2xx decision-path row): the overload checks (pause,
			throttle admission and acceptance, budget deposit; three clock reads) about 120 ns and 0 B, the breaker's
			permission and record about 40 ns; the rest is the guarded body (Feign's `Response` is immutable: over the
			in-memory client here, putting the guard on the body copies the response, and Feign copies its headers
			into a new case-insensitive map, about 380 B with two headers; over Apache HttpClient 5 the guard sits in
			the client's response entity and nothing is copied), the call context (a thread-local slot set per call, and the attempt's hard bound), and the observers
			(an `AttemptOutcome` and a `CallRecord` per call, the meters' keys and timers). Each of those is behaviour
			the issue asks to keep (a 2xx whose body breaks off is a failure, the bound, the observer SPI, the meters),
			so the targets of ≤ 150 ns / ≤ 64 B for all of it, and +150 ns / +128 B for a whole call, are not met.

			One failed 503 attempt (Triage's part about 1.6 µs, 3.1 KB, from 2.4 µs, 12 KB before this round): the error
			body used to be read into an 8 KiB buffer whatever its size, and the exception's message was written for
			every failed attempt, retried or not; both are gone. Left: the exception's stack trace (about 0.7 µs and
			650 B at the shallow depth of a benchmark, more in an application: kept, because the exception a caller
			gets should say where it was called from), the `OriginalResponse` with its redacted header copy, Feign's
			copy of the response around the captured body, the meters and the call log's check.

			Spring HTTP service clients (JFR allocation samples on `RestClientBenchmark` and `EngineBenchmark`). What
			Triage adds to a RestClient call, by allocation site: (1) Spring's interceptor chain: with any
			`ClientHttpRequestInterceptor` a `RestClient` wraps its request factory in
			`InterceptingClientHttpRequestFactory`, whose request buffers the body and copies the headers per execution
			(`InterceptingClientHttpRequest$InterceptingRequestExecution.execute`, `AbstractBufferingClientHttpRequest`):
			about a quarter of the extra bytes of a 200, paid by any interceptor; (2) the engine (below); the method
			key, once built per call (about 1.3 KB), is now built once per `Method`. A 404 adds the error type read
			from the captured body, the `UpstreamResponseException`'s stack trace and the `OriginalResponse`'s
			redacted header copy.

			The engine in memory, a 2xx (`EngineBenchmark.engine2xx`, 500 to 640 B): Resilience4j's time-based window
			(an `Instant` and a `TransitionCheckResult` per record, `Resilience4jUpstreamBreaker.record:51`, the
			benchmark's never-opening breaker), one `Outcome` per 2xx (`Outcome.success`, told again with the whole
			duration when its body ends), the `CallRecord` and its `Duration` (`Engine.report:817-819`), the
			`Call` (`Call.open:88`), the `Attempt` (`Engine.begin:104`) and the observers' `AttemptOutcome`
			(`Protections$Recorder.settled:330`). A failed 503 attempt that is retried
			(`EngineBenchmark.engine503Retried`, about 3.1 to 3.5 KB): the error type, about 40% (`ErrorTypeExtractor
			.extract:84`: a Jackson parser per body, whose field-name canonicalizer allocates its `int[]` hash area
			per parser; `:99` a `JsonPointer` per string value), the exception, about a quarter, built for every attempt,
			retried or not, with its stack trace (`UpstreamException.<init>:54`, reached through `Engine.Answer
			.exception()`, which `TriageRequestInterceptor.attempts:183` calls for each non-2xx attempt; only the
			call's final outcome needs it), the backoff (`Backoff.delay:73`: Resilience4j's `IntervalFunction` boxes a
			`Long` and runs a stream per retry), the `OriginalResponse` with its header copy (`Requests.redact:144-151`)
			and the `Call`.

			A refusal by an open breaker is what must stay cheap while an upstream is down: about 0.3 µs, without a
			stack trace (`UpstreamUnavailableException` is stackless; Resilience4j's own `CallNotPermittedException`
			records one by default and takes about 0.9 µs here).

			Over loopback, Triage's medians used to move from run to run (404 at 2 threads: 0.88 to 1.41 in three
			runs): every attempt woke Triage's attempt-bound scheduler thread, a context switch per call on a 2-core
			machine. The bounds are now watched by one thread that looks every 10 ms at most: arming a bound writes a
			few fields and, once per call, pushes it on a lock-free stack; it wakes nothing and allocates nothing
			(`AttemptAbortBenchmark`).
			""";


	/**
	 * A target on the difference of two JMH means. Two noisy means can differ by less than their errors, even with
	 * the wrong sign (a run once printed −6,942 ns for Triage − plain Feign, its plain side disturbed): such a
	 * difference is reported as noise, with its error, and the target as neither met nor missed.
	 */
	static void differenceTarget(StringBuilder md, String target, Row with, Row without, double maxNanos,
			double maxBytes) {
		md.append("| ").append(target).append(" | ").append(difference(with, without)).append(" | ");
		double nanos = with.score() - without.score();
		double bytes = with.bytes() - without.bytes();
		if (isNoise(with, without)) {
			md.append("noise");
		}
		else {
			md.append((nanos <= maxNanos && bytes <= maxBytes) ? "yes" : "no");
		}
		md.append(" |\n");
	}

	/**
	 * Format the difference of two means with its error, or say it is noise.
	 */
	static String difference(Row with, Row without) {
		double nanos = with.score() - without.score();
		double error = combinedError(with, without);
		double bytes = with.bytes() - without.bytes();
		if (isNoise(with, without)) {
			return String.format(Locale.ROOT, "noise (%+.0f ± %.0f ns), %+.0f B", nanos, error, bytes);
		}
		return String.format(Locale.ROOT, "%+.0f ± %.0f ns, %+.0f B", nanos, error, bytes);
	}

	/**
	 * Whether the difference of two means is noise: negative (a wrapper cannot cost less than what it wraps), or
	 * smaller than the combined error of the two means.
	 */
	static boolean isNoise(Row with, Row without) {
		double nanos = with.score() - without.score();
		return nanos < 0 || Double.isNaN(nanos) || Math.abs(nanos) <= combinedError(with, without);
	}

	private static double combinedError(Row with, Row without) {
		double a = Double.isNaN(with.error()) ? 0 : with.error();
		double b = Double.isNaN(without.error()) ? 0 : without.error();
		return Math.sqrt(a * a + b * b);
	}

	private static void target(StringBuilder md, String target, String measured, boolean met) {
		md.append("| ").append(target).append(" | ").append(measured).append(" | ").append(met ? "yes" : "no").append(" |\n");
	}

	private static void pair(StringBuilder md, String path, String threads, Row plain, Row triage) {
		md.append(String.format(Locale.ROOT, "| %s | %s | %.0f ± %.0f | %.0f ± %.0f | %.2f | %.0f | %.0f |\n", path,
				threads, plain.score(), plain.error(), triage.score(), triage.error(), triage.score() / plain.score(),
				plain.bytes(), triage.bytes()));
	}

	private static void single(StringBuilder md, String path, String threads, Row row) {
		md.append(String.format(Locale.ROOT, "| %s | %s | %.0f ± %.0f | %.0f |\n", path, threads, row.score(), row.error(),
				row.bytes()));
	}

	private static void single3(StringBuilder md, String path, Row row) {
		md.append(String.format(Locale.ROOT, "| %s | %.0f ± %.0f | %.0f |\n", path, row.score(), row.error(),
				row.bytes()));
	}

	static final String COMMAND = "mvn -pl benchmarks -am -DskipTests package && java -jar benchmarks/target/benchmarks.jar";

	record Row(double score, double error, double bytes, double p50, double p99) {
	}

}
