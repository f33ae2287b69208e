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

import java.time.Duration;

import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Like Spring Boot's own {@code http.client.requests}, the call timer publishes a histogram only when the
 * application asks for one ({@code management.metrics.distribution.percentiles-histogram.triage.calls=true}
 * becomes such a meter filter).
 */
class CallTimerHistogramTests {

	private static final CallRecord CALL = new CallRecord("inventory", "InventoryClient#item(String)", null, CallOutcome.SUCCESS,
			FailureClass.NONE, "none", 1, false, Duration.ofMillis(5), null, null);

	@Test
	void noHistogramUnlessAskedFor() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		TriageMetrics metrics = new TriageMetrics();
		metrics.bindTo(registry);

		metrics.onCall(CALL);

		assertThat(registry.scrape()).contains("triage_calls_seconds_count").doesNotContain("triage_calls_seconds_bucket");
	}

	@Test
	void aHistogramWhenTheApplicationAsksForOne() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(new MeterFilter() {

			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				return id.getName().equals("triage.calls")
						? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config) : config;
			}

		});
		TriageMetrics metrics = new TriageMetrics();
		metrics.bindTo(registry);

		metrics.onCall(CALL);

		assertThat(registry.scrape()).contains("triage_calls_seconds_bucket");
	}

}
