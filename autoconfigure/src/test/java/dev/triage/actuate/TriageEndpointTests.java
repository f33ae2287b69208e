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

package dev.triage.actuate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.policy.RuleField;
import dev.triage.support.InventoryClient;
import dev.triage.support.LocalHttp;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;

/**
 * {@code /actuator/triage} over real HTTP.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=triage",
				"triage.policies.5xx.max-attempts=4", "triage.clients.inventory.policies.503.max-attempts=2",
				"triage.clients.inventory.policies.418.breaker=ignore",
				"triage.error-types.overloaded_error.breaker=ignore",
				"triage.clients.inventory.error-types.overloaded_error.max-attempts=5",
				"triage.clients.inventory.deadline=5s", "triage.clients.billing.deadline=1s" })
class TriageEndpointTests extends LoopbackUpstream {

	@Value("${local.server.port}")
	int port;

	private final ObjectMapper json = new ObjectMapper();

	@Test
	void listsEveryManagedClient() throws Exception {
		JsonNode body = get("/actuator/triage", HttpStatus.OK);

		assertThat(iterable(body.path("clients").fieldNames())).containsExactlyInAnyOrder("inventory", "billing");
		assertThat(body.at("/clients/inventory/breaker").asText()).isEqualTo("CLOSED");
	}

	@Test
	void showsTheEffectivePolicyTableWithTheSourceOfEveryField() throws Exception {
		JsonNode policies = get("/actuator/triage/inventory", HttpStatus.OK).path("policies");

		assertThat(policies.at("/503/max-attempts/value").asInt()).isEqualTo(2);
		assertThat(policies.at("/503/max-attempts/source").asText()).isEqualTo("client");
		assertThat(policies.at("/503/backoff.max/value").asText()).isEqualTo("8s");
		assertThat(policies.at("/503/backoff.max/source").asText()).isEqualTo("default");
		assertThat(policies.at("/5xx/max-attempts/value").asInt()).isEqualTo(4);
		assertThat(policies.at("/5xx/max-attempts/source").asText()).isEqualTo("global");
		assertThat(policies.at("/418/breaker/value").asText()).isEqualTo("ignore");
		assertThat(policies.at("/418/breaker/source").asText()).isEqualTo("client");
		assertThat(policies.at("/418/max-attempts/source").asText()).as("inherited from unknown-status")
			.isEqualTo("default");
		assertThat(policies.at("/read-timeout/idempotent-only/value").asBoolean()).isTrue();
		assertThat(policies.at("/unknown-status/max-attempts/value").asInt()).isEqualTo(3);
		assertThat(iterable(policies.path("599").fieldNames())).hasSize(RuleField.values().length);
		assertThat(policies.at("/503/pause/value").asBoolean()).isTrue();
		assertThat(policies.at("/503/overload/source").asText()).isEqualTo("default");
		assertThat(policies.at("/503/failover/value").asBoolean()).isTrue();
		assertThat(policies.at("/404/failover/value").asBoolean()).isFalse();
	}

	@Test
	void showsRetryBudgetThrottleAndAPauseWithItsEnd() throws Exception {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		Instant before = Instant.now();
		catchThrowable(() -> this.billing.invoices());

		JsonNode overload = get("/actuator/triage/billing", HttpStatus.OK).path("overload");

		assertThat(overload.at("/retryBudget/enabled").asBoolean()).isTrue();
		assertThat(overload.at("/retryBudget/ratio").asDouble()).isEqualTo(0.2);
		assertThat(overload.at("/retryBudget/window").asText()).isEqualTo("10s");
		assertThat(overload.at("/retryBudget/firstAttempts").asLong()).isEqualTo(1);
		assertThat(overload.at("/throttle/k").asDouble()).isEqualTo(2.0);
		assertThat(overload.at("/throttle/requests").asLong()).isEqualTo(1);
		assertThat(overload.at("/throttle/accepts").asLong()).as("a 429 is a rejection for load").isZero();
		assertThat(overload.at("/pause/paused").asBoolean()).isTrue();
		assertThat(Instant.parse(overload.at("/pause/until").asText())).isBetween(before.plusSeconds(29),
				Instant.now().plusSeconds(31));
		assertThat(overload.path("rateLimiter").isNull()).as("shown as null when none is configured").isTrue();
		JsonNode inventory = get("/actuator/triage/inventory", HttpStatus.OK);
		assertThat(inventory.at("/overload/pause/paused").asBoolean()).as("other clients are not paused").isFalse();
		assertThat(inventory.at("/overload/pause/until").isNull()).as("null, not left out").isTrue();
		assertThat(inventory.at("/channels/0/pausedUntil").isNull()).isTrue();
	}

	@Test
	void showsErrorTypeRulesWithTheirSources() throws Exception {
		JsonNode types = get("/actuator/triage/inventory", HttpStatus.OK).path("errorTypes");

		assertThat(types.at("/overloaded_error/breaker/source").asText()).isEqualTo("global");
		assertThat(types.at("/overloaded_error/max-attempts/value").asInt()).isEqualTo(5);
		assertThat(types.at("/overloaded_error/max-attempts/source").asText()).isEqualTo("client");
		assertThat(types.at("/overloaded_error/backoff.initial").isMissingNode()).isTrue();
	}

	@Test
	void showsBreakerAndSanitizedRecentFailures() throws Exception {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(404).withHeader("Set-Cookie", "s=s3cr3t")
			.withBody("body-s3cr3t")));
		catchThrowable(() -> this.inventory.search("query-s3cr3t", "Bearer auth-s3cr3t"));

		LocalHttp.Answer raw = LocalHttp.get(this.port, "/actuator/triage/inventory");
		JsonNode body = this.json.readTree(raw.body());

		assertThat(raw.body()).doesNotContain("s3cr3t");
		assertThat(body.at("/breaker/name").asText()).isEqualTo("inventory");
		assertThat(body.at("/breaker/state").asText()).isEqualTo("CLOSED");
		assertThat(body.at("/deadline").asText()).isEqualTo("5s");
		JsonNode failure = body.at("/recentFailures/0");
		assertThat(failure.path("methodKey").asText()).isEqualTo("InventoryClient#search(String,String)");
		assertThat(failure.path("code").asText()).isEqualTo("404");
		assertThat(failure.path("failureClass").asText()).isEqualTo("4xx");
		assertThat(failure.path("attempts").asInt()).isEqualTo(1);
		assertThat(failure.path("fallback").asBoolean()).isFalse();
		assertThat(failure.path("time").isMissingNode()).isFalse();
	}

	@Test
	void showsThePrimaryChannelWithTheClientsBaseUrl() throws Exception {
		JsonNode channels = get("/actuator/triage/inventory", HttpStatus.OK).path("channels");

		assertThat(channels.at("/0/name").asText()).isEqualTo("primary");
		assertThat(channels.at("/0/baseUrl").asText()).isEqualTo(upstream.baseUrl());
		assertThat(channels.at("/0/breaker").asText()).isEqualTo("inventory");
	}

	@Test
	void baseUrlsAreShownWithoutUserInfoQueryFragmentOrPathParameters() {
		assertThat(TriageEndpoint.sanitizeBaseUrl("https://user:s3cr3t@api.example.com:8443/v2;jsessionid=s3cr3t/x"
				+ "?token=s3cr3t#s3cr3t")).isEqualTo("https://api.example.com:8443/v2/x");
		assertThat(TriageEndpoint.sanitizeBaseUrl("http://s3cr3t@10.0.0.1?key=s3cr3t")).isEqualTo("http://10.0.0.1");
		assertThat(TriageEndpoint.sanitizeBaseUrl("http://backup.internal/api"))
			.isEqualTo("http://backup.internal/api");
		assertThat(TriageEndpoint.sanitizeBaseUrl(null)).isNull();
	}

	@Test
	void durationsAreWrittenInTheLargestUnitThatKeepsThemExact() {
		assertThat(TriageEndpoint.text(Duration.ofSeconds(10))).isEqualTo("10s");
		assertThat(TriageEndpoint.text(Duration.ofMillis(500))).isEqualTo("500ms");
		assertThat(TriageEndpoint.text(Duration.ofMillis(1500))).isEqualTo("1500ms");
		assertThat(TriageEndpoint.text(Duration.ofMinutes(2))).isEqualTo("2m");
		assertThat(TriageEndpoint.text(Duration.ofMinutes(90))).isEqualTo("90m");
		assertThat(TriageEndpoint.text(Duration.ofHours(1))).isEqualTo("1h");
		assertThat(TriageEndpoint.text(Duration.ofDays(1))).isEqualTo("1d");
		assertThat(TriageEndpoint.text(Duration.ofNanos(1500))).isEqualTo("1500ns");
		assertThat(TriageEndpoint.text(Duration.ZERO)).isEqualTo("0s");
	}

	@Test
	void unknownClientIs404() {
		assertThat(LocalHttp.get(this.port, "/actuator/triage/nope").status()).isEqualTo(HttpStatus.NOT_FOUND.value());
	}

	private JsonNode get(String path, HttpStatus expected) throws Exception {
		LocalHttp.Answer response = LocalHttp.get(this.port, path);
		assertThat(response.status()).as(response.body()).isEqualTo(expected.value());
		return this.json.readTree(response.body());
	}

	private static List<String> iterable(java.util.Iterator<String> names) {
		List<String> list = new java.util.ArrayList<>();
		names.forEachRemaining(list::add);
		return list;
	}

}
