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

package dev.triage.reliability;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.triage.engine.AttemptAbort;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Every attempt arms a hard bound watched by Triage's one watch thread and disarms it when it ends: that must not
 * wake the thread for each call (a context switch per call), only once a tick at most. Counted from the kernel's
 * per-thread switch counts (Linux's {@code /proc}).
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class AttemptBoundSchedulingTests extends LoopbackUpstream {

	private static final Path TASKS = Path.of("/proc/self/task");

	@Test
	void armingAndDisarmingTheBoundOfEachAttemptDoesNotWakeTheSchedulerPerCall() throws IOException {
		assumeTrue(Files.isDirectory(TASKS), "per-thread switch counts are read from Linux's /proc");
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("{\"id\":\"1\"}")));
		this.inventory.item("1");
		long before = schedulerWakes();
		assertThat(before).as("the scheduler thread exists once a call was made").isGreaterThanOrEqualTo(0);

		int calls = 300;
		long start = System.nanoTime();
		for (int i = 0; i < calls; i++) {
			this.inventory.item("1");
		}
		long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

		assertThat(wireCount()).isEqualTo(calls + 1);
		// The watch looks once a tick while bounds are armed (a slow machine makes fewer ticks, not more); a wake
		// per bound would be one per call, far more than the ticks of 300 calls over loopback.
		assertThat(schedulerWakes() - before).isLessThanOrEqualTo(elapsedMillis / AttemptAbort.TICK_MILLIS + 10);
	}

	private static long schedulerWakes() throws IOException {
		long wakes = -1;
		try (Stream<Path> tasks = Files.list(TASKS)) {
			for (Path task : (Iterable<Path>) tasks::iterator) {
				// the kernel keeps the first 15 characters of a thread's name
				if (Files.readString(task.resolve("comm")).trim().equals("triage-attempt-abort".substring(0, 15))) {
					for (String line : Files.readAllLines(task.resolve("status"))) {
						if (line.startsWith("voluntary_ctxt_switches")) {
							wakes = Math.max(wakes, 0) + Long.parseLong(line.split("\\s+")[1]);
						}
					}
				}
			}
		}
		return wakes;
	}

}
