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

package dev.triage.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs the promtool unit tests of the shipped alert rules ({@code observability/prometheus}). promtool comes
 * with Debian's {@code prometheus} package; without it the test is skipped, unless
 * {@code TRIAGE_REQUIRE_PROMTOOL=true} (as in CI) makes a missing promtool a failure.
 */
class AlertRulesTests {

	private static final Path RULES = Path.of("..", "observability", "prometheus");

	@Test
	void alertRuleUnitTestsPass() throws Exception {
		String promtool = findPromtool();
		if (promtool == null) {
			assertThat(System.getenv("TRIAGE_REQUIRE_PROMTOOL")).as("promtool is required here but not on PATH")
				.isNotEqualTo("true");
			String reason = "promtool not on PATH: install Debian's 'prometheus' package to run the rule tests";
			System.out.println("AlertRulesTests SKIPPED: " + reason);
			Assumptions.abort(reason);
		}

		Result check = run(promtool, "check", "rules", "triage-alerts.yml");
		Result test = run(promtool, "test", "rules", "triage-alerts.test.yml");

		assertThat(check.exitCode()).as(check.output()).isZero();
		assertThat(test.exitCode()).as(test.output()).isZero();
		assertThat(test.output()).contains("SUCCESS");
	}

	private static Result run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(RULES.toFile()).redirectErrorStream(true).start();
		boolean done = process.waitFor(60, TimeUnit.SECONDS);
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!done) {
			process.destroyForcibly();
		}
		return new Result(done ? process.exitValue() : -1, output);
	}

	private static String findPromtool() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			File candidate = new File(dir, "promtool");
			if (candidate.canExecute()) {
				return candidate.getAbsolutePath();
			}
		}
		return null;
	}

	private record Result(int exitCode, String output) {
	}

}
