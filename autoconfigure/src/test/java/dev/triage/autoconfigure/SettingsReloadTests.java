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

package dev.triage.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.triage.reload.ConfigHistory;
import org.junit.jupiter.api.Test;

/**
 * Which keys wait for the next start, whatever form the property source gives them, and the version history.
 */
class SettingsReloadTests {

	@Test
	void keysReadOnceAtStartupAreRecognisedInEveryForm() {
		assertThat(SettingsReload.needsRestart("triage.enabled")).isTrue();
		assertThat(SettingsReload.needsRestart("TRIAGE_ENABLED")).isTrue();
		assertThat(SettingsReload.needsRestart("triage.clients.inventory.enabled")).isTrue();
		assertThat(SettingsReload.needsRestart("triage.clients.inventory.fleet-rate-limit.limit-for-period")).isTrue();
		assertThat(SettingsReload.needsRestart("triage.fleet.store")).isTrue();
		assertThat(SettingsReload.needsRestart("triage.connection-pool.evict-idle-after")).isTrue();
		assertThat(SettingsReload.needsRestart("triage.callLogWindow")).isTrue();

		assertThat(SettingsReload.needsRestart("triage.clients.inventory.policies.503.max-attempts")).isFalse();
		assertThat(SettingsReload.needsRestart("triage.clients.enabled.policies.503.max-attempts"))
			.as("a client named 'enabled'").isFalse();
		assertThat(SettingsReload.needsRestart("triage.retry-budget.enabled")).isFalse();
		assertThat(SettingsReload.needsRestart("triage.clients.inventory.poison.enabled")).isFalse();
	}

	@Test
	void theVersionCountsAppliedChangesAndKeepsTheLastRefusal() {
		ConfigHistory history = new ConfigHistory(Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
		assertThat(history.status().version()).isEqualTo(1);
		assertThat(history.status().lastRejected()).isNull();

		history.rejected("bad");
		assertThat(history.status().version()).isEqualTo(1);
		assertThat(history.status().lastRejected().reason()).isEqualTo("bad");

		assertThat(history.applied()).isEqualTo(2);
		assertThat(history.status().lastRejected()).as("kept until another is refused").isNotNull();
		assertThat(history.appliedCount()).isEqualTo(1);
		assertThat(history.rejectedCount()).isEqualTo(1);
	}

}
