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

package dev.triage.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Runs the demo as its own process, as the README's command does, with {@code exit-after-tour}: a Feign
 * setting that replaces Triage's error decoder for one client (Feign's own: no retry without Retry-After, its
 * own exceptions) makes rows disagree with the policy table, and the process exits non-zero.
 */
class TourExitCodeTests {

	@Test
	void tourExitsNonZeroWhenARowDisagreesWithThePolicyTable() throws Exception {
		Result result = runDemo("--spring.cloud.openfeign.client.config.catalog.error-decoder=feign.codec.ErrorDecoder$Default");

		assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
		assertThat(result.output()).contains("behaved differently from the policy table").contains("NO: ");
	}

	private static Result runDemo(String... extra) throws Exception {
		List<String> command = new ArrayList<>(List.of(
				System.getProperty("java.home") + File.separator + "bin" + File.separator + "java", "-cp",
				System.getProperty("java.class.path"), SampleApplication.class.getName(), "--server.port=0",
				"--demo.upstream-port=" + FreePorts.next(), "--demo.gateway-port=" + FreePorts.next(),
				"--demo.backup-port=" + FreePorts.next(),
				"--demo.exit-after-tour=true"));
		command.addAll(List.of(extra));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		boolean finished = process.waitFor(180, TimeUnit.SECONDS);
		if (!finished) {
			process.destroyForcibly();
		}
		return new Result(finished ? process.exitValue() : -1, new String(output, StandardCharsets.UTF_8));
	}

	private record Result(int exitCode, String output) {
	}

}
