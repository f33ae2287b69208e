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

import dev.triage.AttemptOutcome;
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
 * Like Spring Boot's own {@code http.client.requests}, the call timer and the per-attempt latency timer publish a
 * histogram only when the application asks for one
 * ({@code management.metrics.distribution.percentiles-histogram.triage.calls=true}, or {@code .triage.attempt.latency},
 * becomes such a meter filter; {@code ObservabilityContractTests} sets both properties on a running application).
 */
class CallTimerHistogramTests {

	private static final CallRecord CALL = new CallRecord("inventory", "InventoryClient#item(String)", null, CallOutcome.SUCCESS,
			FailureClass.NONE, "none", 1, false, Duration.ofMillis(5), null, null);

	private static final AttemptOutcome ATTEMPT = new AttemptOutcome("inventory", 200, null, FailureClass.SUCCESS_2XX,
			null, Duration.ofMillis(5).toNanos(), "primary");

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

	@Test
	void noAttemptLatencyHistogramUnlessAskedFor() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(histogramFor("triage.calls"));
		TriageMetrics metrics = new TriageMetrics();
		metrics.bindTo(registry);

		metrics.onAttempt(ATTEMPT);

		assertThat(registry.scrape()).contains("triage_attempt_latency_seconds_count")
			.doesNotContain("triage_attempt_latency_seconds_bucket");
	}

	@Test
	void anAttemptLatencyHistogramWhenTheApplicationAsksForOne() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(histogramFor("triage.attempt.latency"));
		TriageMetrics metrics = new TriageMetrics();
		metrics.bindTo(registry);

		metrics.onAttempt(ATTEMPT);

		assertThat(registry.scrape()).contains("triage_attempt_latency_seconds_bucket{client=\"inventory\",le=")
			.doesNotContain("triage_calls_seconds_bucket");
	}

	private static MeterFilter histogramFor(String name) {
		return new MeterFilter() {

			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				return id.getName().equals(name)
						? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config) : config;
			}

		};
	}

}
