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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report writer's command line: a path, help, or a refusal; never an option taken for a file name. And its
 * differences of two means: a negative cost or one within the errors is noise, not a figure.
 */
class BenchmarkReportTests {

	@Test
	void aRatioIsTheMedianOfTheRunsMediansNotOneRuns() {
		List<LoopbackComparison.Comparison> runs = List.of(run(1.20, 0.90), run(1.01, 1.30), run(0.98, 1.02));

		double[] ok = BenchmarkReport.acrossRuns(runs, (r) -> r.triageMedians().get(LoopbackComparison.Scenario.OK_200));

		assertThat(ok).containsExactly(1.01, 1.02);
	}

	private static LoopbackComparison.Comparison run(double oneThread, double twoThreads) {
		Map<LoopbackComparison.Scenario, double[]> medians = new EnumMap<>(LoopbackComparison.Scenario.class);
		medians.put(LoopbackComparison.Scenario.OK_200, new double[] { oneThread, twoThreads });
		return new LoopbackComparison.Comparison(List.of(), medians, null, medians);
	}

	@Test
	void aComparisonRunInAJvmOfItsOwnComesBackWhole(@TempDir Path directory) throws Exception {
		Map<LoopbackComparison.Scenario, double[]> medians = new EnumMap<>(LoopbackComparison.Scenario.class);
		medians.put(LoopbackComparison.Scenario.OK_200, new double[] { 1.04, 1.07 });
		medians.put(LoopbackComparison.Scenario.OPEN_BREAKER_LOGGED, new double[] { 0.2, 0.3 });
		Map<LoopbackComparison.Scenario, double[]> restClient = new EnumMap<>(LoopbackComparison.Scenario.class);
		restClient.put(LoopbackComparison.Scenario.NOT_FOUND_404, new double[] { 0.99, 1.01 });
		LoopbackComparison.Comparison sent = new LoopbackComparison.Comparison(List.of("| a | b |", "|---|---|"),
				medians, new double[] { 980.0, 1940.0 }, restClient);
		Path file = directory.resolve("result.json");

		LoopbackComparison.write(sent, file);
		LoopbackComparison.Comparison received = LoopbackComparison.read(file);

		assertThat(received.table()).isEqualTo(sent.table());
		assertThat(received.triageMedians().get(LoopbackComparison.Scenario.OK_200)).containsExactly(1.04, 1.07);
		assertThat(received.triageMedians().get(LoopbackComparison.Scenario.OPEN_BREAKER_LOGGED))
			.containsExactly(0.2, 0.3);
		assertThat(received.triageRefusalPercentiles()).containsExactly(980.0, 1940.0);
		assertThat(received.restClientMedians().get(LoopbackComparison.Scenario.NOT_FOUND_404))
			.containsExactly(0.99, 1.01);
		assertThat(BenchmarkReport.acrossRuns(List.of(received, sent, received),
				(r) -> r.triageMedians().get(LoopbackComparison.Scenario.OK_200))).containsExactly(1.04, 1.07);
	}

	@Test
	void aRegeneratedReportKeepsWhatWasMeasuredApartAndNothingElse() {
		String previous = "# Triage benchmarks\n\n| old table |\n\n" + BenchmarkReport.KEPT
				+ "\n\n## The fleet against a local redis-server\n\n| what | figure |\n";
		assertThat(BenchmarkReport.kept(previous)).isEqualTo("\n" + BenchmarkReport.KEPT
				+ "\n\n## The fleet against a local redis-server\n\n| what | figure |\n");
		assertThat(BenchmarkReport.kept("# Triage benchmarks\n\n| old table |\n")).isEmpty();
	}

	@Test
	void withoutArgumentsTheReportGoesToDocs() {
		assertThat(BenchmarkReport.output()).isEqualTo(Path.of("docs", "benchmarks.md"));
	}

	@Test
	void thePathGivenIsWhereTheReportGoes() {
		assertThat(BenchmarkReport.output("target/report.md")).isEqualTo(Path.of("target/report.md"));
	}

	@Test
	void helpIsAskedForWithShortAndLongOption() {
		assertThat(BenchmarkReport.output("-h")).isNull();
		assertThat(BenchmarkReport.output("--help")).isNull();
		assertThat(BenchmarkReport.USAGE).contains("Usage:").contains("-h, --help");
	}

	@Test
	void anOptionItDoesNotKnowIsRefusedNotWrittenTo() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkReport.output("-o"))
			.withMessage("Unknown option '-o'");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkReport.output("--out=x.md"))
			.withMessage("Unknown option '--out=x.md'");
	}

	@Test
	void twoPathsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkReport.output("a.md", "b.md"))
			.withMessageContaining("'a.md' and 'b.md'");
	}

	@Test
	void aNegativeDifferenceOfTwoMeansIsNoiseNotACost() {
		BenchmarkReport.Row triage = new BenchmarkReport.Row(1_000, 200, 900, Double.NaN, Double.NaN);
		BenchmarkReport.Row plain = new BenchmarkReport.Row(7_942, 9_000, 800, Double.NaN, Double.NaN);
		StringBuilder md = new StringBuilder();

		BenchmarkReport.differenceTarget(md, "whole 200 call", triage, plain, 150, 128);

		assertThat(md.toString()).isEqualTo("| whole 200 call | noise (-6942 ± 9002 ns), +100 B | noise |\n");
	}

	@Test
	void aDifferenceWithinTheErrorsIsNoiseAndOneBeyondThemIsACost() {
		BenchmarkReport.Row plain = new BenchmarkReport.Row(1_000, 30, 800, Double.NaN, Double.NaN);
		assertThat(BenchmarkReport.isNoise(new BenchmarkReport.Row(1_040, 30, 800, Double.NaN, Double.NaN), plain))
			.isTrue();
		BenchmarkReport.Row costly = new BenchmarkReport.Row(1_400, 30, 900, Double.NaN, Double.NaN);
		assertThat(BenchmarkReport.isNoise(costly, plain)).isFalse();
		StringBuilder md = new StringBuilder();
		BenchmarkReport.differenceTarget(md, "t", costly, plain, 150, 128);
		assertThat(md.toString()).isEqualTo("| t | +400 ± 42 ns, +100 B | no |\n");
	}

}
