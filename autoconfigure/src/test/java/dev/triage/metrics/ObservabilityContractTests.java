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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.support.LocalHttp;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.beans.factory.annotation.Value;

/**
 * Every expression of the shipped Grafana dashboard and Prometheus alert rules names a series that a running
 * application really exports on {@code /actuator/prometheus}.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=prometheus,triage",
				"management.metrics.distribution.percentiles-histogram.triage.calls=true",
				"management.metrics.distribution.percentiles-histogram.triage.attempt.latency=true",
				"spring.cloud.openfeign.client.config.billing.read-timeout=300",
				// Spring Boot's tests switch metrics export off unless asked for; this asks the same way on both
				// Boot lines (the test annotation for it differs between them)
				"management.prometheus.metrics.export.enabled=true" })
class ObservabilityContractTests extends LoopbackUpstream {

	private static final Path OBSERVABILITY = Path.of("..", "observability");

	private static final Pattern METRIC = Pattern.compile("\\b((?:triage|resilience4j)_[a-z_]+)\\b");

	@Value("${local.server.port}")
	int port;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Test
	void dashboardAndAlertRulesOnlyNameExportedSeries() throws IOException {
		upstream.stubFor(any(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(any(urlPathMatching("/orders")).willReturn(aResponse().withStatus(500)));
		upstream.stubFor(any(urlPathMatching("/invoices")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		this.inventory.item("1");
		catchThrowable(() -> this.inventory.order("{}"));
		catchThrowable(() -> this.billing.invoices());
		this.breakers.circuitBreaker("billing").transitionToForcedOpenState();
		catchThrowable(() -> this.billing.invoices());

		LocalHttp.Answer response = LocalHttp.get(this.port, "/actuator/prometheus");
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		String scrape = response.body();
		Set<String> exported = new TreeSet<>();
		for (String line : scrape.split("\n")) {
			Matcher name = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)").matcher(line);
			if (!line.startsWith("#") && name.find()) {
				exported.add(name.group(1));
			}
		}
		Set<String> named = new TreeSet<>();
		named.addAll(metricNames(dashboardExpressions()));
		named.addAll(metricNames(Files.readString(OBSERVABILITY.resolve("prometheus/triage-alerts.yml"))));

		assertThat(named).contains("triage_attempts_total", "triage_calls_seconds_count", "triage_calls_seconds_bucket",
				"triage_retries_total", "triage_retries_suppressed_total", "resilience4j_circuitbreaker_state",
				"triage_refusals_total", "triage_throttle_drop_probability", "triage_retry_budget_remaining",
				"triage_paused", "triage_attempt_latency_seconds_sum", "triage_attempt_latency_seconds_bucket");
		assertThat(exported).containsAll(named);
	}

	@Test
	void recordedSeriesTheDashboardUsesAreRecordedByTheRules() throws IOException {
		String rules = Files.readString(OBSERVABILITY.resolve("prometheus/triage-alerts.yml"));
		Matcher used = Pattern.compile("triage:[a-z_:0-9]+").matcher(dashboardExpressions());
		Set<String> names = new TreeSet<>();
		while (used.find()) {
			names.add(used.group());
		}

		assertThat(names).isNotEmpty();
		assertThat(names).allSatisfy((name) -> assertThat(rules).contains("record: " + name));
	}

	private static String dashboardExpressions() throws IOException {
		JsonNode dashboard = new ObjectMapper()
			.readTree(OBSERVABILITY.resolve("grafana/triage-dashboard.json").toFile());
		StringBuilder expressions = new StringBuilder();
		dashboard.path("panels")
			.forEach((panel) -> panel.path("targets").forEach((target) -> expressions.append(target.path("expr").asText())
				.append('\n')));
		dashboard.at("/templating/list")
			.forEach((variable) -> expressions.append(variable.path("query").asText()).append('\n'));
		assertThat(expressions).isNotEmpty();
		return expressions.toString();
	}

	private static Set<String> metricNames(String text) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = METRIC.matcher(text);
		while (matcher.find()) {
			names.add(matcher.group(1));
		}
		return names;
	}

}
