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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.ThreadMXBean;
import dev.triage.UpstreamUnavailableException;
import feign.Feign;
import feign.RequestLine;
import feign.Retryer;
import feign.hc5.ApacheHttp5Client;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.consumer.EventConsumerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;

import dev.triage.TriageHttpServices;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JConfigBuilder;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * The same calls over loopback, six ways: plain Feign on Apache HttpClient 5, Spring Cloud OpenFeign (on HC5,
 * the baseline), Spring Cloud OpenFeign with Spring Cloud CircuitBreaker on Resilience4j (its shipped defaults,
 * the breaker held closed for the 503), Triage on Feign, and the same interface as a Spring HTTP service client
 * ({@code @HttpExchange} on a {@code RestClient} from Spring Boot's builder, on HC5), plain and managed by Triage
 * ({@code TriageHttpServices.createClient}). Scenarios: a 200 decoded by Jackson, a 404 with a JSON error
 * body, a 503 (one attempt), and a breaker forced open. Contenders run round-robin, their order rotated each
 * round, so each round's ratios compare like with like; the table gives min / median / max of the ratios to
 * Spring Cloud OpenFeign over the measured rounds, and Triage's RestClient is also compared with the plain one.
 */
public final class LoopbackComparison {

	// Short turns, many rounds: a round's contenders call within the same second, so a slow moment of a shared
	// machine weighs on all of them, and the median over many rounds drops the disturbed ones. Overridable for a
	// quick smoke run (-Dbench.rounds=1 -Dbench.warm-up-rounds=0 -Dbench.slice-millis=50); the committed table
	// uses the defaults.
	static final int WARM_UP_ROUNDS = Integer.getInteger("bench.warm-up-rounds", 5);

	static final int ROUNDS = Integer.getInteger("bench.rounds", 21);

	static final long SLICE_NANOS = Long.getLong("bench.slice-millis", 200) * 1_000_000L;

	/**
	 * The 503 row runs in the last rounds only: it is not a cost comparison (Apache HttpClient 5's hidden retry
	 * makes a call of the others last a second whatever the slice), it shows requests on the wire.
	 */
	static final int FAILED_ROUNDS = Math.min(3, ROUNDS);

	/**
	 * A contender's turn within an interleaved slice.
	 */
	static final long TURN_NANOS = Long.getLong("bench.turn-millis", 2) * 1_000_000L;

	static final byte[] ITEM = "{\"id\":42,\"name\":\"widget\"}".getBytes(StandardCharsets.UTF_8);

	private LoopbackComparison() {
	}

	/**
	 * What the upstream answers.
	 */
	enum Scenario {

		OK_200("200 decoded by Jackson"), NOT_FOUND_404("404 with a JSON error body"), FAILED_503("503, one attempt"),
		OPEN_BREAKER("breaker open (refused, nothing sent)"),
		OPEN_BREAKER_LOGGED("breaker open, call log on (default logging)");

		final String label;

		Scenario(String label) {
			this.label = label;
		}

	}

	/**
	 * The body of a 200.
	 */
	public record Item(long id, String name) {
	}

	/**
	 * The client as Spring Cloud OpenFeign sees it.
	 */
	@FeignClient(name = "bench", url = "${bench.url}")
	public interface SpringClient {

		@GetMapping("/ok")
		Item ok();

		@GetMapping("/missing")
		Item missing();

		@GetMapping("/down")
		Item down();

	}

	/**
	 * The client as plain Feign sees it.
	 */
	public interface PlainClient {

		@RequestLine("GET /ok")
		Item ok();

		@RequestLine("GET /missing")
		Item missing();

		@RequestLine("GET /down")
		Item down();

	}

	/**
	 * The client as Spring's HTTP service clients see it.
	 */
	public interface RestApi {

		@GetExchange("/ok")
		Item ok();

		@GetExchange("/missing")
		Item missing();

		@GetExchange("/down")
		Item down();

	}

	/**
	 * One way of calling the upstream.
	 */
	interface Contender extends AutoCloseable {

		String name();

		/**
		 * Make one call of a scenario; return normally whatever the call ended with, throw when it ended in a
		 * way that scenario does not allow (then the figures would compare different things).
		 */
		void call(Scenario scenario);

		/**
		 * Whether this contender has a breaker to open.
		 */
		boolean hasBreaker();

		void breakerOpen(boolean open);

		/**
		 * Switch Triage's call log to its default level (INFO) or back off; nothing for the others.
		 */
		default void callLog(boolean on) {
		}

		@Override
		default void close() {
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = SpringClient.class)
	static class BenchApp {

	}

	/**
	 * The HTTP service client, on a {@code RestClient} from Spring Boot's builder (Apache HttpClient 5): managed
	 * by Triage as client {@code bench} when Triage is on, else plain.
	 */
	@Configuration(proxyBeanMethods = false)
	static class HttpServiceClient {

		@Bean
		RestApi restApi(RestClient.Builder builder, ObjectProvider<TriageHttpServices> triage,
				@Value("${bench.url}") String url) {
			RestClient restClient = builder.baseUrl(url).build();
			TriageHttpServices services = triage.getIfAvailable();
			return (services != null) ? services.createClient("bench", RestApi.class, restClient)
					: HttpServiceProxyFactory.builderFor(RestClientAdapter.create(restClient)).build()
						.createClient(RestApi.class);
		}

	}

	/**
	 * Spring Cloud CircuitBreaker's defaults, except that the breaker never opens on its own: the 503 scenario
	 * measures failed calls, not refusals.
	 */
	@Configuration(proxyBeanMethods = false)
	static class HeldClosed {

		@Bean
		Customizer<Resilience4JCircuitBreakerFactory> heldClosed() {
			return (factory) -> factory.configureDefault((id) -> new Resilience4JConfigBuilder(id)
				.circuitBreakerConfig(Fixtures.neverOpeningConfig())
				.timeLimiterConfig(TimeLimiterConfig.ofDefaults())
				.build());
		}

	}

	/**
	 * The table's rows (markdown), Triage's median ratio to Spring Cloud OpenFeign per scenario at 1 and 2
	 * threads, Triage's refusal percentiles with the call log on, and Triage's RestClient's median ratio to the
	 * plain RestClient per scenario at 1 and 2 threads.
	 */
	record Comparison(List<String> table, Map<Scenario, double[]> triageMedians, double[] triageRefusalPercentiles,
			Map<Scenario, double[]> restClientMedians) {
	}

	/**
	 * Call-by-call durations in nanoseconds, for percentiles.
	 */
	static final class Latencies {

		private long[] nanos = new long[1 << 16];

		private int size;

		void add(long duration) {
			if (this.size == this.nanos.length) {
				this.nanos = Arrays.copyOf(this.nanos, this.size * 2);
			}
			this.nanos[this.size++] = duration;
		}

		void addAll(Latencies other) {
			for (int i = 0; i < other.size; i++) {
				add(other.nanos[i]);
			}
		}

		void clear() {
			this.size = 0;
		}

		double[] percentiles(double... ranks) {
			long[] sorted = Arrays.copyOf(this.nanos, this.size);
			Arrays.sort(sorted);
			double[] values = new double[ranks.length];
			for (int i = 0; i < ranks.length; i++) {
				int at = (int) Math.min(sorted.length - 1, Math.ceil(ranks[i] / 100 * sorted.length) - 1);
				values[i] = sorted[Math.max(0, at)];
			}
			return values;
		}

	}

	static final int TRIAGE = 3;

	static final int PLAIN_REST_CLIENT = 4;

	static final int TRIAGE_REST_CLIENT = 5;

	/**
	 * The system property naming the file a forked comparison writes its result to (JSON).
	 */
	static final String RESULT_FILE = "bench.result-file";

	public static void main(String[] args) throws Exception {
		Comparison comparison = run();
		String resultFile = System.getProperty(RESULT_FILE);
		if (resultFile != null) {
			write(comparison, Path.of(resultFile));
			return;
		}
		for (String line : comparison.table()) {
			System.out.println(line);
		}
	}

	/**
	 * Run the comparison in a JVM of its own, with this one's {@code bench.*} and {@code triage.*} system
	 * properties: the same code's ratios differ more from one JVM to the next (what the JIT compiled, and how)
	 * than from one run to the next within a JVM, so runs meant to be independent must not share one.
	 */
	static Comparison forked() throws IOException, InterruptedException {
		Path result = Files.createTempFile("triage-loopback", ".json");
		try {
			List<String> command = new ArrayList<>();
			command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			for (String name : System.getProperties().stringPropertyNames()) {
				if (name.startsWith("bench.") || name.startsWith("triage.")) {
					command.add("-D" + name + "=" + System.getProperty(name));
				}
			}
			command.add("-D" + RESULT_FILE + "=" + result);
			command.add("-cp");
			command.add(System.getProperty("java.class.path"));
			command.add(LoopbackComparison.class.getName());
			int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
			if (exit != 0) {
				throw new IllegalStateException("the loopback comparison's JVM exited with " + exit);
			}
			return read(result);
		}
		finally {
			Files.deleteIfExists(result);
		}
	}

	static void write(Comparison comparison, Path file) throws IOException {
		new ObjectMapper().writeValue(file.toFile(), comparison);
	}

	static Comparison read(Path file) throws IOException {
		return new ObjectMapper().readValue(file.toFile(), Comparison.class);
	}

	/**
	 * Run the comparison.
	 */
	static Comparison run() throws Exception {
		LoopbackUpstream upstream = upstream();
		String url = upstream.url();
		ExecutorService callers = Executors.newFixedThreadPool(2);
		List<Contender> contenders = new ArrayList<>();
		try {
			contenders.add(plain(url + "/c0"));
			contenders.add(spring("Spring Cloud OpenFeign", url + "/c1", false, false));
			contenders.add(spring("SC OpenFeign + SC CircuitBreaker (Resilience4j)", url + "/c2", false, true));
			contenders.add(spring("Triage", url + "/c3", true, false));
			contenders.add(restClient("plain RestClient + HC5", url + "/c4", false));
			contenders.add(restClient("Triage RestClient", url + "/c5", true));
			Map<Scenario, List<double[]>> ratiosOne = new EnumMap<>(Scenario.class);
			Map<Scenario, List<double[]>> ratiosTwo = new EnumMap<>(Scenario.class);
			Map<Scenario, double[]> wirePerCall = new EnumMap<>(Scenario.class);
			Map<Scenario, List<Double>> baselineMicros = new EnumMap<>(Scenario.class);
			List<double[]> failedMicros = new ArrayList<>();
			Latencies[] refusalLatencies = new Latencies[contenders.size()];
			Latencies[][] sliceLatencies = new Latencies[2][contenders.size()];
			Latencies[] merged = new Latencies[contenders.size()];
			for (int i = 0; i < contenders.size(); i++) {
				sliceLatencies[0][i] = new Latencies();
				sliceLatencies[1][i] = new Latencies();
				merged[i] = new Latencies();
			}
			for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
				boolean measured = round >= WARM_UP_ROUNDS;
				for (Scenario scenario : Scenario.values()) {
					if (scenario == Scenario.FAILED_503 && round < WARM_UP_ROUNDS + ROUNDS - FAILED_ROUNDS) {
						continue;
					}
					boolean refusal = scenario == Scenario.OPEN_BREAKER || scenario == Scenario.OPEN_BREAKER_LOGGED;
					for (int threads = 1; threads <= 2; threads++) {
						// The order of the round, rotated each round; without the contenders that cannot refuse.
						List<Integer> order = new ArrayList<>();
						for (int k = 0; k < contenders.size(); k++) {
							int index = (k + round) % contenders.size();
							if (!refusal || contenders.get(index).hasBreaker()) {
								order.add(index);
							}
						}
						long[] wireBefore = new long[contenders.size()];
						for (int index : order) {
							Contender contender = contenders.get(index);
							if (refusal) {
								contender.breakerOpen(true);
							}
							// Triage's call log at its default level (INFO), except for the 503 (its WARN line per
							// alert-worthy failure is the console's cost, not a decision's) and the quiet refusal row.
							contender.callLog(scenario != Scenario.FAILED_503 && scenario != Scenario.OPEN_BREAKER);
							wireBefore[index] = upstream.requests("/c" + index);
						}
						long[][] counted = (scenario == Scenario.FAILED_503)
								? sequential(callers, contenders, order, scenario, threads)
								: interleaved(callers, contenders, order, scenario, threads, sliceLatencies);
						double[] nanos = new double[contenders.size()];
						Arrays.fill(nanos, Double.NaN);
						double[] wire = wirePerCall.computeIfAbsent(scenario, (sc) -> new double[contenders.size()]);
						Arrays.fill(wire, Double.NaN);
						for (int index : order) {
							Contender contender = contenders.get(index);
							contender.callLog(false);
							if (refusal) {
								contender.breakerOpen(false);
							}
							if (scenario == Scenario.FAILED_503) {
								nanos[index] = (double) counted[index][1] / counted[index][0];
							}
							else {
								// The median call: a stall of the shared machine (a descheduled thread, another
								// process's burst) lands on whichever contender is calling and would move a mean.
								Latencies all = merged[index];
								all.clear();
								for (int t = 0; t < threads; t++) {
									all.addAll(sliceLatencies[t][index]);
								}
								nanos[index] = all.percentiles(50)[0];
								if (scenario == Scenario.OPEN_BREAKER_LOGGED && threads == 1 && measured) {
									if (refusalLatencies[index] == null) {
										refusalLatencies[index] = new Latencies();
									}
									refusalLatencies[index].addAll(all);
								}
							}
							wire[index] = (double) (upstream.requests("/c" + index) - wireBefore[index])
									/ counted[index][0];
						}
						if (measured) {
							int base = refusal ? 2 : 1;
							double[] ratios = new double[contenders.size()];
							for (int i = 0; i < ratios.length; i++) {
								ratios[i] = nanos[i] / nanos[base];
							}
							((threads == 1) ? ratiosOne : ratiosTwo).computeIfAbsent(scenario, (s) -> new ArrayList<>())
								.add(ratios);
							if (threads == 1 && scenario == Scenario.FAILED_503) {
								failedMicros.add(Arrays.stream(nanos).map((n) -> n / 1000).toArray());
							}
							if (threads == 1) {
								baselineMicros.computeIfAbsent(scenario, (s) -> new ArrayList<>()).add(nanos[base] / 1000);
							}
						}
					}
				}
				System.out.println("loopback comparison: round " + (round + 1) + " of " + (WARM_UP_ROUNDS + ROUNDS)
						+ (measured ? "" : " (warm-up)"));
			}
			Map<Scenario, double[]> triageMedians = new EnumMap<>(Scenario.class);
			Map<Scenario, double[]> restClientMedians = new EnumMap<>(Scenario.class);
			for (Scenario scenario : Scenario.values()) {
				triageMedians.put(scenario, new double[] {
						median(ratiosOne.get(scenario).stream().mapToDouble((r) -> r[TRIAGE]).toArray()),
						median(ratiosTwo.get(scenario).stream().mapToDouble((r) -> r[TRIAGE]).toArray()) });
				restClientMedians.put(scenario, new double[] {
						median(ratiosOne.get(scenario).stream()
							.mapToDouble((r) -> r[TRIAGE_REST_CLIENT] / r[PLAIN_REST_CLIENT]).toArray()),
						median(ratiosTwo.get(scenario).stream()
							.mapToDouble((r) -> r[TRIAGE_REST_CLIENT] / r[PLAIN_REST_CLIENT]).toArray()) });
			}
			List<String> table = render(contenders, ratiosOne, ratiosTwo, wirePerCall, baselineMicros, failedMicros);
			StringBuilder percentiles = new StringBuilder("| µs per call, p50 / p99, call by call: ")
				.append(Scenario.OPEN_BREAKER_LOGGED.label).append(" | 1 | ");
			double[] triagePercentiles = null;
			for (int i = 0; i < contenders.size(); i++) {
				Latencies latencies = refusalLatencies[i];
				if (latencies == null) {
					percentiles.append("| — ");
					continue;
				}
				double[] p = latencies.percentiles(50, 99);
				percentiles.append(String.format(Locale.ROOT, "| %.2f / %.2f ", p[0] / 1000, p[1] / 1000));
				if (i == TRIAGE) {
					triagePercentiles = p;
				}
			}
			table.add(table.size() - 3, percentiles.append('|').toString());
			table.addAll(renderRestClient(ratiosOne, ratiosTwo));
			return new Comparison(table, triageMedians, triagePercentiles, restClientMedians);
		}
		finally {
			for (Contender contender : contenders) {
				contender.close();
			}
			callers.shutdownNow();
			upstream.close();
		}
	}

	/**
	 * Interleaved, for every scenario but the 503: each caller thread gives the contenders turns of
	 * {@link #TURN_NANOS} in the round's order until each has had about {@link #SLICE_NANOS}, so that every
	 * contender calls under the same conditions of a shared machine, millisecond by millisecond. Every call's
	 * duration goes to {@code latencies[thread][contender]}. Return, per contender, {calls, thread-nanoseconds,
	 * the caller threads' CPU nanoseconds, the bytes they allocated}.
	 */
	static long[][] interleaved(ExecutorService callers, List<Contender> contenders, List<Integer> order,
			Scenario scenario, int threads, Latencies[][] latencies) throws Exception {
		List<Future<long[][]>> running = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Latencies[] own = latencies[t];
			for (Latencies one : own) {
				one.clear();
			}
			running.add(callers.submit(() -> {
				long[][] counted = new long[contenders.size()][4];
				ThreadMXBean jvm = (ThreadMXBean) ManagementFactory.getThreadMXBean();
				long now = System.nanoTime();
				long end = now + SLICE_NANOS * order.size();
				for (int turn = 0; turn < order.size() || now < end; turn++) {
					int index = order.get(turn % order.size());
					Contender contender = contenders.get(index);
					Latencies calls = own[index];
					long start = now;
					long turnEnd = start + TURN_NANOS;
					long cpuStart = jvm.getCurrentThreadCpuTime();
					long allocatedStart = jvm.getCurrentThreadAllocatedBytes();
					do {
						long before = now;
						contender.call(scenario);
						counted[index][0]++;
						now = System.nanoTime();
						calls.add(now - before);
					}
					while (now < turnEnd);
					counted[index][1] += now - start;
					counted[index][2] += jvm.getCurrentThreadCpuTime() - cpuStart;
					counted[index][3] += jvm.getCurrentThreadAllocatedBytes() - allocatedStart;
				}
				return counted;
			}));
		}
		return sum(running, contenders.size());
	}

	/**
	 * One contender after the other, each for one slice of time on {@code threads} threads (the 503: a call of
	 * the others lasts a second). Return, per contender, {calls, thread-nanoseconds}.
	 */
	private static long[][] sequential(ExecutorService callers, List<Contender> contenders, List<Integer> order,
			Scenario scenario, int threads) throws Exception {
		long[][] counted = new long[contenders.size()][2];
		for (int index : order) {
			Contender contender = contenders.get(index);
			List<Future<long[]>> running = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				running.add(callers.submit(() -> {
					long start = System.nanoTime();
					long end = start + SLICE_NANOS;
					long calls = 0;
					long now;
					do {
						contender.call(scenario);
						calls++;
						now = System.nanoTime();
					}
					while (now < end);
					return new long[] { calls, now - start };
				}));
			}
			for (Future<long[]> one : running) {
				long[] slice = one.get();
				counted[index][0] += slice[0];
				counted[index][1] += slice[1];
			}
		}
		return counted;
	}

	private static long[][] sum(List<Future<long[][]>> running, int contenders) throws Exception {
		long[][] total = new long[contenders][4];
		for (Future<long[][]> one : running) {
			long[][] counted = one.get();
			for (int i = 0; i < contenders; i++) {
				for (int k = 0; k < 4; k++) {
					total[i][k] += counted[i][k];
				}
			}
		}
		return total;
	}

	private static List<String> render(List<Contender> contenders, Map<Scenario, List<double[]>> one,
			Map<Scenario, List<double[]>> two, Map<Scenario, double[]> wirePerCall,
			Map<Scenario, List<Double>> baselineMicros, List<double[]> failedMicros) {
		List<String> lines = new ArrayList<>();
		StringBuilder head = new StringBuilder("| scenario | threads | baseline µs/call (median) ");
		StringBuilder rule = new StringBuilder("|---|---|---");
		for (Contender contender : contenders) {
			head.append("| ").append(contender.name()).append(' ');
			rule.append("|---");
		}
		lines.add(head.append('|').toString());
		lines.add(rule.append('|').toString());
		for (Scenario scenario : Scenario.values()) {
			for (int threads = 1; threads <= 2; threads++) {
				List<double[]> rounds = ((threads == 1) ? one : two).get(scenario);
				StringBuilder row = new StringBuilder("| ").append(scenario.label).append(" | ").append(threads)
					.append(" | ")
					.append((threads == 1) ? String.format(Locale.ROOT, "%.1f", median(baselineMicros.get(scenario)
						.stream().mapToDouble(Double::doubleValue).toArray())) : "")
					.append(' ');
				for (int i = 0; i < contenders.size(); i++) {
					int index = i;
					double[] ratios = rounds.stream().mapToDouble((r) -> r[index]).toArray();
					row.append("| ").append(Double.isNaN(ratios[0]) ? "—" : String.format(Locale.ROOT,
							"%.2f (%.2f–%.2f)", median(ratios), Arrays.stream(ratios).min().getAsDouble(),
							Arrays.stream(ratios).max().getAsDouble())).append(' ');
				}
				lines.add(row.append('|').toString());
			}
		}
		StringBuilder failed = new StringBuilder("| µs per call, median: ").append(Scenario.FAILED_503.label)
			.append(" | 1 | ");
		for (int i = 0; i < contenders.size(); i++) {
			int index = i;
			failed.append(String.format(Locale.ROOT, "| %.0f ", median(failedMicros.stream().mapToDouble((r) -> r[index])
				.toArray())));
		}
		lines.add(failed.append('|').toString());
		for (Scenario scenario : List.of(Scenario.FAILED_503, Scenario.OPEN_BREAKER, Scenario.OPEN_BREAKER_LOGGED)) {
			StringBuilder wire = new StringBuilder("| requests on the wire per call: ").append(scenario.label)
				.append(" | | ");
			double[] perCall = wirePerCall.get(scenario);
			for (int i = 0; i < contenders.size(); i++) {
				wire.append("| ").append(Double.isNaN(perCall[i]) ? "—" : String.format(Locale.ROOT, "%.2f", perCall[i]))
					.append(' ');
			}
			lines.add(wire.append('|').toString());
		}
		return lines;
	}

	/**
	 * Triage's RestClient against the plain one, round by round (each round's two figures come from the same
	 * round): a second table, after a blank line.
	 */
	private static List<String> renderRestClient(Map<Scenario, List<double[]>> one, Map<Scenario, List<double[]>> two) {
		List<String> lines = new ArrayList<>();
		lines.add("");
		lines.add("| scenario | threads | Triage RestClient ÷ plain RestClient + HC5, median (min–max) |");
		lines.add("|---|---|---|");
		for (Scenario scenario : List.of(Scenario.OK_200, Scenario.NOT_FOUND_404)) {
			for (int threads = 1; threads <= 2; threads++) {
				double[] ratios = ((threads == 1) ? one : two).get(scenario).stream()
					.mapToDouble((r) -> r[TRIAGE_REST_CLIENT] / r[PLAIN_REST_CLIENT]).toArray();
				lines.add(String.format(Locale.ROOT, "| %s | %d | %.2f (%.2f–%.2f) |", scenario.label, threads,
						median(ratios), Arrays.stream(ratios).min().getAsDouble(),
						Arrays.stream(ratios).max().getAsDouble()));
			}
		}
		return lines;
	}

	static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	static LoopbackUpstream upstream() throws IOException {
		LoopbackUpstream.Answer ok = new LoopbackUpstream.Answer(200, null, ITEM);
		LoopbackUpstream.Answer notFound = new LoopbackUpstream.Answer(404, null, Fixtures.JSON_404);
		LoopbackUpstream.Answer down = new LoopbackUpstream.Answer(503, null,
				"{\"error\":{\"type\":\"unavailable\",\"message\":\"try later\"}}".getBytes(StandardCharsets.UTF_8));
		// Each contender calls under a path of its own (/c0, /c1, ...), so the upstream counts its requests apart.
		return new LoopbackUpstream((path) -> path.endsWith("/ok") ? ok : path.endsWith("/missing") ? notFound : down);
	}

	/**
	 * Plain Feign on Apache HttpClient 5, Jackson for the body, no retries (Feign's default retryer would sleep
	 * and retry every 503 five times).
	 */
	private static Contender plain(String url) {
		ObjectMapper mapper = new ObjectMapper();
		PlainClient client = Feign.builder()
			.client(new ApacheHttp5Client())
			.decoder((response, type) -> mapper.readValue(response.body().asInputStream(), mapper.constructType(type)))
			.retryer(Retryer.NEVER_RETRY)
			.target(PlainClient.class, url);
		return new Contender() {

			@Override
			public String name() {
				return "plain Feign + HC5";
			}

			@Override
			public void call(Scenario scenario) {
				expect(scenario, client::ok, client::missing, client::down, feign.FeignException.class);
			}

			@Override
			public boolean hasBreaker() {
				return false;
			}

			@Override
			public void breakerOpen(boolean open) {
				throw new UnsupportedOperationException();
			}

		};
	}

	/**
	 * Triage's settings for the 503 row only: one attempt for the 503 like the others, the breaker held closed, and
	 * the protections that a 100% 503 loop would rightly trigger (throttling, poison detection) off: measured is the
	 * cost of a failed attempt, not of a refusal. Every other row runs Triage with its defaults.
	 */
	static final List<String> HELD_FOR_503 = List.of("triage.policies.503.max-attempts=1",
			"triage.throttle.enabled=false", "triage.poison.enabled=false",
			"resilience4j.circuitbreaker.instances.bench.sliding-window-type=TIME_BASED",
			"resilience4j.circuitbreaker.instances.bench.minimum-number-of-calls=" + Integer.MAX_VALUE);

	/**
	 * Start a Spring Boot application (no web server) with the client, with or without Triage (with its
	 * defaults, or held for the 503 row), with or without Spring Cloud CircuitBreaker.
	 */
	private static ConfigurableApplicationContext start(String url, boolean triage, boolean heldFor503,
			boolean springBreaker, List<String> settings, Class<?>... sources) {
		List<String> properties = new ArrayList<>(List.of("bench.url=" + url, "spring.main.banner-mode=off",
				"spring.jmx.enabled=false", "logging.level.root=WARN", "triage.enabled=" + triage,
				"spring.cloud.openfeign.circuitbreaker.enabled=" + springBreaker));
		if (heldFor503) {
			properties.addAll(HELD_FOR_503);
		}
		properties.addAll(settings);
		return new SpringApplicationBuilder(sources)
			.web(WebApplicationType.NONE)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	/**
	 * A contender on Spring Boot: one application, or for Triage two (its defaults for every row; held for the
	 * 503 row), whose client calls the upstream.
	 */
	private abstract static class Applications<C> implements Contender {

		private final String name;

		private final boolean triage;

		private final Class<? extends RuntimeException> failure;

		final ConfigurableApplicationContext context;

		private final ConfigurableApplicationContext held;

		private final C client;

		private final C heldClient;

		Applications(String name, String url, boolean triage, boolean springBreaker, Class<C> clientType,
				Class<?>... sources) {
			this(name, url, triage, springBreaker, List.of(), clientType, sources);
		}

		Applications(String name, String url, boolean triage, boolean springBreaker, List<String> settings,
				Class<C> clientType, Class<?>... sources) {
			this.name = name;
			this.triage = triage;
			this.failure = triage ? dev.triage.UpstreamException.class : RuntimeException.class;
			this.context = start(url, triage, false, springBreaker, settings, sources);
			this.held = triage ? start(url, true, true, springBreaker, settings, sources) : this.context;
			this.client = this.context.getBean(clientType);
			this.heldClient = this.held.getBean(clientType);
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public void call(Scenario scenario) {
			call(scenario, (scenario == Scenario.FAILED_503) ? this.heldClient : this.client, this.failure);
		}

		abstract void call(Scenario scenario, C client, Class<? extends RuntimeException> failure);

		abstract CircuitBreakerRegistry breakers();

		@Override
		public void breakerOpen(boolean open) {
			for (CircuitBreaker breaker : breakers().getAllCircuitBreakers()) {
				if (open) {
					breaker.transitionToForcedOpenState();
				}
				else {
					breaker.transitionToClosedState();
				}
			}
		}

		@Override
		public void callLog(boolean on) {
			if (this.triage) {
				// What an application gets without a logging setting: Spring Boot's default INFO (the
				// benchmarks' logback.xml switches the call log off for the other rows).
				LoggingSystem.get(getClass().getClassLoader())
					.setLogLevel("dev.triage.calls", on ? LogLevel.INFO : LogLevel.ERROR);
			}
		}

		@Override
		public void close() {
			this.context.close();
			if (this.held != this.context) {
				this.held.close();
			}
		}

	}

	static Contender spring(String name, String url, boolean triage, boolean springBreaker) {
		return spring(name, url, triage, springBreaker, List.of());
	}

	/**
	 * Spring Cloud OpenFeign, with Triage or not, with more application properties ({@code key=value}).
	 */
	static Contender spring(String name, String url, boolean triage, boolean springBreaker, List<String> settings) {
		Class<?>[] sources = springBreaker ? new Class<?>[] { BenchApp.class, HeldClosed.class }
				: new Class<?>[] { BenchApp.class };
		return new Applications<>(name, url, triage, springBreaker, settings, SpringClient.class, sources) {

			@Override
			void call(Scenario scenario, SpringClient client, Class<? extends RuntimeException> failure) {
				expect(scenario, client::ok, client::missing, client::down, failure);
			}

			@Override
			public boolean hasBreaker() {
				return triage || springBreaker;
			}

			@Override
			CircuitBreakerRegistry breakers() {
				return springBreaker
						? this.context.getBean(Resilience4JCircuitBreakerFactory.class).getCircuitBreakerRegistry()
						: this.context.getBean(CircuitBreakerRegistry.class);
			}

		};
	}

	/**
	 * Spring Cloud OpenFeign with each call inside a Resilience4j breaker taken from the application's
	 * {@code CircuitBreakerRegistry} (so {@code resilience4j-spring-boot3} buffers its events for its endpoint and
	 * its metrics count its calls, as for Triage's breakers), and nothing else: what a breaker per upstream, wired
	 * by hand, costs a 200.
	 */
	static Contender breakerOnly(String name, String url) {
		return new BreakerOnly(name, url);
	}

	private static final class BreakerOnly extends Applications<SpringClient> {

		private CircuitBreaker breaker;

		BreakerOnly(String name, String url) {
			super(name, url, false, false, SpringClient.class, BenchApp.class);
		}

		@Override
		void call(Scenario scenario, SpringClient client, Class<? extends RuntimeException> failure) {
			CircuitBreaker breaker = this.breaker;
			if (breaker == null) {
				breaker = breakers().circuitBreaker("bench");
				this.breaker = breaker;
				System.out.printf(Locale.ROOT, "%s: its breaker's events buffered for the endpoint: %s; its call timers: %d%n",
						name(), ((EventConsumerRegistry<?>) this.context.getBean("eventConsumerRegistry")).getEventConsumer("bench") != null,
						this.context.getBean(MeterRegistry.class).find("resilience4j.circuitbreaker.calls").timers().size());
			}
			CircuitBreaker wrapping = breaker;
			expect(scenario, () -> wrapping.executeSupplier(client::ok), () -> wrapping.executeSupplier(client::missing),
					() -> wrapping.executeSupplier(client::down), failure);
		}

		@Override
		public boolean hasBreaker() {
			return true;
		}

		@Override
		CircuitBreakerRegistry breakers() {
			return this.context.getBean(CircuitBreakerRegistry.class);
		}

	}

	/**
	 * The HTTP service client on Spring Boot's {@code RestClient.Builder} (Apache HttpClient 5), with or without
	 * Triage: the same settings as the Feign contender of the same kind.
	 */
	static Contender restClient(String name, String url, boolean triage) {
		return new Applications<>(name, url, triage, false, RestApi.class, BenchApp.class, HttpServiceClient.class) {

			@Override
			void call(Scenario scenario, RestApi client, Class<? extends RuntimeException> failure) {
				expect(scenario, client::ok, client::missing, client::down, failure);
			}

			@Override
			public boolean hasBreaker() {
				return triage;
			}

			@Override
			CircuitBreakerRegistry breakers() {
				return this.context.getBean(CircuitBreakerRegistry.class);
			}

		};
	}

	/**
	 * Run one call and check it ended the way its scenario says: a 200 returns the item; the others throw the
	 * contender's failure type (a refusal, for an open breaker).
	 */
	private static void expect(Scenario scenario, Supplier<Item> ok, Supplier<Item> missing, Supplier<Item> down,
			Class<? extends RuntimeException> failure) {
		try {
			Item item = switch (scenario) {
				case OK_200, OPEN_BREAKER, OPEN_BREAKER_LOGGED -> ok.get();
				case NOT_FOUND_404 -> missing.get();
				case FAILED_503 -> down.get();
			};
			if (scenario != Scenario.OK_200 || item.id() != 42) {
				throw new IllegalStateException(scenario + " returned " + item);
			}
		}
		catch (RuntimeException ex) {
			if (scenario == Scenario.OK_200 || !failure.isInstance(ex)) {
				throw new IllegalStateException(scenario + " failed unexpectedly", ex);
			}
			if ((scenario == Scenario.OPEN_BREAKER || scenario == Scenario.OPEN_BREAKER_LOGGED)
					&& ex instanceof dev.triage.UpstreamException
					&& !(ex instanceof UpstreamUnavailableException)) {
				throw new IllegalStateException("Triage called an upstream whose breaker is open", ex);
			}
		}
	}

}
