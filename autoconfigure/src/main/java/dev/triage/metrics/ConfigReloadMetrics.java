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

import dev.triage.reload.ConfigHistory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code triage.config.reloads}, tag {@code outcome} = {@code applied} | {@code rejected}: the changes to the
 * settings put in force or refused while the application runs (SPEC §12), both present from startup at 0.
 */
public final class ConfigReloadMetrics implements MeterBinder {

	private final ConfigHistory history;

	/**
	 * Create the binder.
	 * @param history the settings' version history
	 */
	public ConfigReloadMetrics(ConfigHistory history) {
		this.history = history;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("triage.config.reloads", this.history, ConfigHistory::appliedCount)
			.description("Changes to Triage's settings applied or refused while the application runs")
			.tag("outcome", "applied")
			.register(registry);
		FunctionCounter.builder("triage.config.reloads", this.history, ConfigHistory::rejectedCount)
			.description("Changes to Triage's settings applied or refused while the application runs")
			.tag("outcome", "rejected")
			.register(registry);
	}

}
