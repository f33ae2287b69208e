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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One row of the loopback comparison, for working on it: Spring Cloud OpenFeign and Triage (both on Apache
 * HttpClient 5, Triage with its defaults), or with {@code -Dbench.pair=restclient} the HTTP service client plain and
 * managed, or with {@code -Dbench.pair=breaker} Spring Cloud OpenFeign alone and with each call inside a
 * Resilience4j breaker of the application's registry, or with {@code -Dbench.pair=settings} Triage with its
 * defaults and Triage with the application properties of {@code -Dbench.settings} ({@code key=value,...}: what a
 * setting costs, both in one JVM), interleaved on the 200 ({@code -Dbench.scenario=NOT_FOUND_404}: the 404), on {@code -Dbench.threads}
 * threads (default 2),
 * {@code -Dbench.rounds} rounds after {@code -Dbench.warm-up-rounds}. Prints each round's ratio of median calls
 * and their median. Run it under a profiler to see where Triage's share of a call goes:
 * {@code java -XX:StartFlightRecording=filename=focus.jfr,settings=profile -cp benchmarks/target/benchmarks.jar
 * dev.triage.bench.LoopbackFocus}.
 */
public final class LoopbackFocus {

	/**
	 * Warm-up rounds, by default 40: a round here is two contenders on one row, about a thirtieth of a report
	 * round, and with the report's 5 the JIT is still compiling while the rounds are measured (on a slow machine
	 * the first measured rounds read 1.2-1.3 where warmed-up ones read 1.0-1.1).
	 */
	static final int WARM_UP_ROUNDS = Integer.getInteger("bench.warm-up-rounds", 40);

	private LoopbackFocus() {
	}

	private static double median(List<Double> values) {
		return LoopbackComparison.median(values.stream().mapToDouble(Double::doubleValue).toArray());
	}

	public static void main(String[] args) throws Exception {
		int threads = Integer.getInteger("bench.threads", 2);
		// One contender alone (0: the plain one, 1: the managed one), to watch it from outside (strace, perf).
		int only = Integer.getInteger("bench.only", -1);
		// The pair (feign: Spring Cloud OpenFeign and Triage; restclient: an HTTP service client on RestClient, plain
		// and managed; breaker: Spring Cloud OpenFeign alone and inside a Resilience4j breaker; settings: Triage with
		// its defaults and with -Dbench.settings) and the row (OK_200, NOT_FOUND_404).
		String pair = System.getProperty("bench.pair", "feign");
		LoopbackComparison.Scenario scenario = LoopbackComparison.Scenario
			.valueOf(System.getProperty("bench.scenario", "OK_200"));
		LoopbackUpstream upstream = LoopbackComparison.upstream();
		ExecutorService callers = Executors.newFixedThreadPool(threads);
		List<LoopbackComparison.Contender> contenders = new ArrayList<>();
		try {
			if ("restclient".equals(pair)) {
				contenders.add(LoopbackComparison.restClient("plain RestClient", upstream.url() + "/c0", false));
				contenders.add(LoopbackComparison.restClient("Triage RestClient", upstream.url() + "/c1", true));
			}
			else if ("settings".equals(pair)) {
				List<String> settings = List.of(System.getProperty("bench.settings", "").split(","))
					.stream()
					.filter((setting) -> !setting.isBlank())
					.toList();
				contenders.add(LoopbackComparison.spring("Triage", upstream.url() + "/c0", true, false));
				contenders.add(LoopbackComparison.spring("Triage with " + settings, upstream.url() + "/c1", true,
						false, settings));
			}
			else if ("breaker".equals(pair)) {
				contenders.add(LoopbackComparison.spring("Spring Cloud OpenFeign", upstream.url() + "/c0", false, false));
				contenders.add(LoopbackComparison.breakerOnly("Spring Cloud OpenFeign + Resilience4j breaker",
						upstream.url() + "/c1"));
			}
			else {
				contenders.add(LoopbackComparison.spring("Spring Cloud OpenFeign", upstream.url() + "/c0", false, false));
				contenders.add(LoopbackComparison.spring("Triage", upstream.url() + "/c1", true, false));
			}
			String[] names = { contenders.get(0).name(), contenders.get(1).name() };
			LoopbackComparison.Latencies[][] latencies = new LoopbackComparison.Latencies[threads][2];
			for (LoopbackComparison.Latencies[] perThread : latencies) {
				perThread[0] = new LoopbackComparison.Latencies();
				perThread[1] = new LoopbackComparison.Latencies();
			}
			List<Double> ratios = new ArrayList<>();
			List<Double> cpuRatios = new ArrayList<>();
			List<Double> cpuExtra = new ArrayList<>();
			List<Double> allocatedExtra = new ArrayList<>();
			int rounds = WARM_UP_ROUNDS + LoopbackComparison.ROUNDS;
			for (int round = 0; round < rounds; round++) {
				List<Integer> order = (only >= 0) ? List.of(only) : (round % 2 == 0) ? List.of(0, 1) : List.of(1, 0);
				long[][] counted = LoopbackComparison.interleaved(callers, contenders, order,
						scenario, threads, latencies);
				if (only >= 0) {
					System.out.printf(Locale.ROOT, "round %d: %s only, %d calls, %.2f µs CPU per call%n", round + 1,
							contenders.get(only).name(), counted[only][0],
							(double) counted[only][2] / counted[only][0] / 1000);
					continue;
				}
				double[] cpu = { (double) counted[0][2] / counted[0][0], (double) counted[1][2] / counted[1][0] };
				double[] allocated = { (double) counted[0][3] / counted[0][0], (double) counted[1][3] / counted[1][0] };
				double[] medians = new double[2];
				for (int c = 0; c < 2; c++) {
					LoopbackComparison.Latencies all = new LoopbackComparison.Latencies();
					for (int t = 0; t < threads; t++) {
						all.addAll(latencies[t][c]);
					}
					medians[c] = all.percentiles(50)[0];
				}
				boolean measured = round >= WARM_UP_ROUNDS;
				if (measured) {
					ratios.add(medians[1] / medians[0]);
					cpuRatios.add(cpu[1] / cpu[0]);
					cpuExtra.add(cpu[1] - cpu[0]);
					allocatedExtra.add(allocated[1] - allocated[0]);
				}
				System.out.printf(Locale.ROOT, "round %d%s: %s %.1f µs, %s %.1f µs, ratio %.3f; "
						+ "caller CPU per call %.2f / %.2f µs (%+.2f); allocated %.0f / %.0f B; calls %d / %d%n", round + 1,
						measured ? "" : " (warm-up)", names[0], medians[0] / 1000, names[1], medians[1] / 1000, medians[1] / medians[0],
						cpu[0] / 1000, cpu[1] / 1000, (cpu[1] - cpu[0]) / 1000, allocated[0], allocated[1],
						counted[0][0], counted[1][0]);
			}
			System.out.printf(Locale.ROOT, "requests / connections: %s %d / %d, %s %d / %d%n", names[0],
					upstream.requests("/c0"), upstream.connections("/c0"), names[1], upstream.requests("/c1"),
					upstream.connections("/c1"));
			if (only >= 0) {
				// One contender alone: there is nothing to compare.
				return;
			}
			System.out.printf(Locale.ROOT, "%s at %d thread(s): %s / %s, median of %d rounds: %.3f%n", scenario, threads,
					names[1], names[0], ratios.size(), median(ratios));
			System.out.printf(Locale.ROOT, "caller CPU per call, %s / %s: %.3f, the managed one's extra %.2f µs (medians)%n",
					names[1], names[0], median(cpuRatios), median(cpuExtra) / 1000);
			System.out.printf(Locale.ROOT, "allocated per call, the managed one's extra: %.0f B (median)%n", median(allocatedExtra));
		}
		finally {
			for (LoopbackComparison.Contender contender : contenders) {
				contender.close();
			}
			callers.shutdownNow();
			upstream.close();
		}
	}

}
