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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.tour.FleetScene;
import dev.triage.sample.tour.Row;
import dev.triage.sample.tour.TourRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet scene without a usable {@code redis-server}: skipped with how to get one (the tour still passes), or
 * failed when the one it was given does not run. Played with one: {@link TourTests}.
 */
class FleetSceneTests {

	private final ChaosUpstream upstream = newUpstream();

	@AfterEach
	void close() {
		this.upstream.close();
	}

	@Test
	void withoutARedisServerBothRowsAreSkippedWithHowToGetOneAndTheTourPasses() {
		List<Row> rows = new FleetScene(this.upstream, true, "/nonexistent/redis-server").play();

		assertThat(rows).extracting(Row::scenario).containsExactly(FleetScene.PAUSE, FleetScene.LIMIT);
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row.played()).isFalse();
			assertThat(row.skipped()).contains("/nonexistent/redis-server is not an executable file");
			assertThat(row.callerGot()).contains("apt-get install redis-server");
			assertThat(row.wire()).isZero();
		});
		assertThat(TourRunner.exitCode(rows)).isZero();
		assertThat(this.upstream.requests()).isZero();
	}

	@Test
	void aRedisServerThatDoesNotStartFailsBothRows(@TempDir Path dir) throws Exception {
		Path broken = Files.writeString(dir.resolve("redis-server"), "#!/bin/sh\necho 'cannot start' >&2\nexit 1\n");
		assertThat(broken.toFile().setExecutable(true)).isTrue();

		List<Row> rows = new FleetScene(this.upstream, true, broken.toString()).play();

		assertThat(rows).extracting(Row::scenario).containsExactly(FleetScene.PAUSE, FleetScene.LIMIT);
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row.played()).isTrue();
			assertThat(row.disagreements()).singleElement().asString()
				.startsWith("the fleet did not run: ")
				.contains("cannot start");
		});
		assertThat(TourRunner.exitCode(rows)).isOne();
	}

	@Test
	void turnedOffBothRowsAreSkippedSayingSo() {
		List<Row> rows = new FleetScene(this.upstream, false, "").play();

		assertThat(rows).allSatisfy((row) -> assertThat(row.skipped()).isEqualTo("demo.fleet.enabled=false"));
		assertThat(TourRunner.exitCode(rows)).isZero();
	}

	private static ChaosUpstream newUpstream() {
		try {
			return new ChaosUpstream(0, 10, 2);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
