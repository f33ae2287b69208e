package dev.triage.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import dev.triage.UpstreamException;
import dev.triage.feign.ClientRuntime;
import dev.triage.policy.PolicyTable;
import feign.Client;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark of this module, then the failure-mode figures over loopback, and writes
 * {@code docs/benchmarks.md} (or the path given as the first argument): the table, the machine, the date and the
 * command. Absolute times are noise on a shared 2-core machine; the ratios measured in one run are what to read.
 */
public final class BenchmarkReport {

	private BenchmarkReport() {
	}

	public static void main(String[] args) throws Exception {
		Path out = Path.of((args.length > 0) ? args[0] : "docs/benchmarks.md");
		Map<String, Row> one = run(CallBenchmark.class.getSimpleName(), 1);
		Map<String, Row> two = run(CallBenchmark.class.getSimpleName(), 2);
		Map<String, Row> other = run(ErrorTypeBenchmark.class.getSimpleName() + "|" + OverloadBenchmark.class.getSimpleName(), 1);
		List<String> failureModes = failureModes();
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, render(one, two, other, failureModes));
		System.out.println("Wrote " + out.toAbsolutePath());
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
			rows.put(name, new Row(primary.getScore(), primary.getScoreError(), (alloc != null) ? alloc.getScore() : -1));
		}
		return rows;
	}

	/**
	 * What reaches the wire per logical call when an upstream fails, Triage-managed Feign over loopback: 100% 503
	 * with the breaker on, with the breaker held closed (the retry budget alone), and 10% random 500s.
	 */
	private static List<String> failureModes() throws IOException {
		List<String> lines = new ArrayList<>();
		int calls = 1_000;
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
		AtomicInteger wire = new AtomicInteger();
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		server.createContext("/", (exchange) -> {
			wire.incrementAndGet();
			exchange.getRequestBody().readAllBytes();
			boolean fail = ThreadLocalRandom.current().nextDouble() < failureShare;
			byte[] body = fail ? Fixtures.JSON_404 : "\"ok\"".getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.getResponseHeaders().add("Retry-After", "0");
			exchange.sendResponseHeaders(fail ? status : 200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
		server.start();
		long start = System.nanoTime();
		try {
			Fixtures.Api api = feign.Feign.builder()
				.client(new Client.Default(null, null))
				.addCapability(new dev.triage.feign.TriageCapability(runtime))
				.errorDecoder(new dev.triage.feign.TriageErrorDecoder(runtime))
				.retryer(new dev.triage.feign.TriageRetryer(runtime))
				.target(Fixtures.Api.class, "http://127.0.0.1:" + server.getAddress().getPort());
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
					wire.get(), wire.get() / (double) calls, 100.0 * succeeded / calls);
		}
		finally {
			server.stop(0);
			((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
		}
	}

	private static String render(Map<String, Row> one, Map<String, Row> two, Map<String, Row> other,
			List<String> failureModes) {
		StringBuilder md = new StringBuilder();
		md.append("# Triage benchmarks\n\n");
		md.append("Generated by `").append(COMMAND).append("` on ").append(LocalDate.now()).append(", ")
			.append(Runtime.getRuntime().availableProcessors()).append(" CPUs, Java ")
			.append(System.getProperty("java.version")).append(" (").append(System.getProperty("java.vm.name"))
			.append("), ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch"))
			.append(".\n\nJMH, 1 fork, 3 × 1s warm-up, 5 × 1s measurement, `-prof gc`. Absolute times on a shared 2-core "
					+ "machine are noise; read the ratios, measured in the same run.\n\n");
		md.append("## Whole calls in memory (Feign on an in-memory client)\n\n");
		md.append("| path | threads | plain Feign ns/op | Triage ns/op | ratio | plain B/op | Triage B/op |\n");
		md.append("|---|---|---|---|---|---|---|\n");
		pair(md, "200 + String decode", "1", one.get("ok200Plain"), one.get("ok200Triage"));
		pair(md, "200 + String decode", "2", two.get("ok200Plain"), two.get("ok200Triage"));
		pair(md, "404 with a JSON error body", "1", one.get("notFound404Plain"), one.get("notFound404Triage"));
		pair(md, "404 with a JSON error body", "2", two.get("notFound404Plain"), two.get("notFound404Triage"));
		md.append("\n| path | threads | ns/op | B/op |\n|---|---|---|---|\n");
		single(md, "one failed 503 attempt, whole call (classify, rule, OriginalResponse, exception, breaker, meters)",
				"1", one.get("failed503Triage"));
		single(md, "refusal by an open breaker, whole call (Triage)", "1", one.get("openBreakerTriage"));
		single(md, "refusal by an open breaker (Resilience4j alone, CallNotPermittedException)", "1",
				one.get("openBreakerResilience4jAlone"));
		single(md, "refusal by an open breaker, whole call (Triage)", "2", two.get("openBreakerTriage"));
		md.append("\n## Decision paths\n\n| path | ns/op | B/op |\n|---|---|---|\n");
		single3(md, "error type, 64 KiB JSON body, type first: streaming (Triage)", other.get("streaming64k"));
		single3(md, "error type, 64 KiB JSON body: Jackson tree of the whole body (before)", other.get("jacksonTree64k"));
		single3(md, "overload checks of a successful attempt (pause, throttle, budget, no limiter)",
				other.get("overloadChecks"));
		single3(md, "Resilience4j breaker permission + success record (for scale)", other.get("breakerPermissionAndSuccess"));
		md.append("\n## Failure modes over loopback (Triage-managed Feign, `Retry-After: 0`)\n\n");
		md.append("| scenario | logical calls | calls/s | requests on the wire | per call | calls that succeeded |\n");
		md.append("|---|---|---|---|---|---|\n");
		failureModes.forEach((line) -> md.append(line).append('\n'));
		md.append("\nWithout Triage's budget and breaker, 100% 503 with the default table sends 3 requests per call. The "
				+ "budget allows 20% of first attempts plus a reserve of 10 retries per second: at a few hundred calls per "
				+ "second the 20% bites (`RetryBudgetTests`: 200 calls in well under a second reach the wire 240 to 300 "
				+ "times instead of 600); a quiet client's retries fit in the reserve.\n");
		md.append(targets(one, two, other));
		return md.toString();
	}

	/**
	 * The targets of the performance issue, each met or not in this run, with the known cause of a gap.
	 */
	private static String targets(Map<String, Row> one, Map<String, Row> two, Map<String, Row> other) {
		StringBuilder md = new StringBuilder("\n## Targets\n\n| target | this run | met |\n|---|---|---|\n");
		double ratio404One = one.get("notFound404Triage").score() / one.get("notFound404Plain").score();
		double ratio404Two = two.get("notFound404Triage").score() / two.get("notFound404Plain").score();
		target(md, "404 with a JSON body, ratio to plain Feign ≤ 1.05 at 1 and 2 threads (in memory)",
				String.format(Locale.ROOT, "%.2f / %.2f", ratio404One, ratio404Two), ratio404One <= 1.05 && ratio404Two <= 1.05);
		Row failed = one.get("failed503Triage");
		target(md, "one failed 503 attempt ≤ 800 ns, ≤ 1.5 KB (measured here: the whole Feign call around it, "
				+ "request template, response and the exception's stack trace included)",
				String.format(Locale.ROOT, "%.0f ns, %.0f B", failed.score(), failed.bytes()),
				failed.score() <= 800 && failed.bytes() <= 1536);
		double extraNanos = one.get("ok200Triage").score() - one.get("ok200Plain").score();
		double extraBytes = one.get("ok200Triage").bytes() - one.get("ok200Plain").bytes();
		target(md, "whole 200 call, Triage − plain Feign ≤ +150 ns, ≤ +128 B",
				String.format(Locale.ROOT, "+%.0f ns, +%.0f B", extraNanos, extraBytes), extraNanos <= 150 && extraBytes <= 128);
		Row refusal = one.get("openBreakerTriage");
		target(md, "refusal by an open breaker ≤ 2 µs (p50; p99 ≤ 5 µs not measured: average mode)",
				String.format(Locale.ROOT, "%.2f µs average", refusal.score() / 1000), refusal.score() <= 2000);
		Row type = other.get("streaming64k");
		target(md, "error type from a 64 KiB body, type first ≤ 1 µs", String.format(Locale.ROOT, "%.2f µs, %.0f B",
				type.score() / 1000, type.bytes()), type.score() <= 1000);
		md.append("\nKnown causes of the gaps, for the next round: on a 2xx, Triage allocates a call context (with its "
				+ "attempt bound), wraps the body so the breaker learns the outcome only once it has arrived, and tells "
				+ "its observers (meter keys are records hashed per call; the attempt-latency timer; the overload "
				+ "windows read a clock per check). The loopback comparison with Spring Cloud OpenFeign and Spring Cloud "
				+ "CircuitBreaker (Resilience4j) as contenders is not in this module yet.\n");
		return md.toString();
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

	private record Row(double score, double error, double bytes) {
	}

}
