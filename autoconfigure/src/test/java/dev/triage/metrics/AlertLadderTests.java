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

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The shipped alert rules follow seed 001's ladder (提示 / 告警 / 紧急 as {@code warning} / {@code page} /
 * {@code critical}), every alert has a firing and a non-firing promtool case, and the dashboard shows the tiers
 * without counting expected failures ({@code alert: false}, e.g. 404 or 499) as failures. What the rules compute
 * is {@link AlertRulesTests}' job (promtool); this reads the files.
 */
class AlertLadderTests {

	private static final Path OBSERVABILITY = Path.of("..", "observability");

	@Test
	void everyAlertIsOnSeedOnesLadder() throws IOException {
		Map<String, String> severities = alertSeverities();

		assertThat(Set.copyOf(severities.values())).containsExactlyInAnyOrder("warning", "page", "critical");
		assertThat(severities).containsEntry("TriageFinalFailuresRising", "warning")
			.containsEntry("TriageFinalFailureRateHigh", "page")
			.containsEntry("TriageChannelsExhausted", "critical")
			.containsEntry("TriageUnknownStatus", "warning");
	}

	@Test
	void everyAlertHasAFiringAndANonFiringUnitTest() throws IOException {
		Set<String> firing = new TreeSet<>();
		Set<String> silent = new TreeSet<>();
		for (Map<String, Object> test : list(yaml("prometheus/triage-alerts.test.yml").get("tests"))) {
			for (Map<String, Object> check : list(test.get("alert_rule_test"))) {
				String name = (String) check.get("alertname");
				(list(check.get("exp_alerts")).isEmpty() ? silent : firing).add(name);
			}
		}

		assertThat(firing).containsAll(alertSeverities().keySet());
		assertThat(silent).containsAll(alertSeverities().keySet());
	}

	@Test
	void finalFailuresByClassCountsAlertWorthyOutcomesAndRefusalsButAPoisonRequests() throws IOException {
		JsonNode panel = panel("Final failures by class");

		assertThat(panel.at("/targets/0/expr").asText()).contains("alert=\"true\"").contains("outcome!=\"success\"")
			.contains("class=\"refused\", code!=\"poison\"");
	}

	@Test
	void dashboardShowsTheTiersAndWhatEachIsComparedWith() throws IOException {
		assertThat(panel("Alert ladder").at("/targets/0/expr").asText()).contains("ALERTS{")
			.contains("severity");
		assertThat(panel("Final failure ratio against").toString()).contains("triage:final_failure_ratio:baseline1d",
				"triage:final_failure_ratio:warning_threshold", "triage:final_failure_ratio:page_threshold");
		assertThat(panel("Critical tier").toString()).contains("triage:primary_breaker_open:max",
				"triage:other_channels_failure_ratio:rate2m", "triage:channel_breaker_open:max");
		assertThat(panel("Timeout ratio").toString()).contains("read-timeout");
		assertThat(panel("Attempt latency percentiles").toString()).contains("triage_attempt_latency_seconds_bucket");
	}

	@Test
	void theDocumentedAlertTableMatchesTheRules() throws IOException {
		Map<String, String> documented = new TreeMap<>();
		Pattern row = Pattern.compile("^\\|[^|]*\\| `(warning|page|critical)` \\|.*");
		Pattern alert = Pattern.compile("`(Triage[A-Za-z]+)`");
		for (String line : Files.readAllLines(Path.of("..", "docs", "observability.md"))) {
			Matcher tier = row.matcher(line);
			if (tier.matches()) {
				Matcher names = alert.matcher(line);
				while (names.find()) {
					documented.put(names.group(1), tier.group(1));
				}
			}
		}

		assertThat(documented).as("docs/observability.md's alert table: alert -> severity")
			.isEqualTo(alertSeverities());
	}

	private static Map<String, String> alertSeverities() throws IOException {
		Map<String, String> severities = new TreeMap<>();
		for (Map<String, Object> group : list(yaml("prometheus/triage-alerts.yml").get("groups"))) {
			for (Map<String, Object> rule : list(group.get("rules"))) {
				if (rule.containsKey("alert")) {
					@SuppressWarnings("unchecked")
					Map<String, Object> labels = (Map<String, Object>) rule.get("labels");
					severities.put((String) rule.get("alert"), (String) labels.get("severity"));
				}
			}
		}
		assertThat(severities).isNotEmpty();
		return severities;
	}

	private static JsonNode panel(String titleStart) throws IOException {
		JsonNode dashboard = new ObjectMapper().readTree(OBSERVABILITY.resolve("grafana/triage-dashboard.json").toFile());
		List<JsonNode> found = new ArrayList<>();
		dashboard.path("panels").forEach((panel) -> {
			if (panel.path("title").asText().startsWith(titleStart)) {
				found.add(panel);
			}
		});
		assertThat(found).as("panels titled '" + titleStart + "…'").hasSize(1);
		return found.get(0);
	}

	private static Map<String, Object> yaml(String file) throws IOException {
		try (Reader reader = Files.newBufferedReader(OBSERVABILITY.resolve(file))) {
			return new Yaml().load(reader);
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> list(Object value) {
		return (value != null) ? (List<Map<String, Object>>) value : List.of();
	}

}
