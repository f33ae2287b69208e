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

package dev.triage.reload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.engine.ManagedClients;
import dev.triage.support.LocalHttp;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * SPEC §12 end to end, the way an operator does it: the configuration file changes (as a mounted ConfigMap does),
 * {@code POST /actuator/refresh}, and the next call follows the new table; {@code /actuator/triage} shows the
 * version; a bad file is refused and the calls keep the last valid table.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		args = "--spring.config.import=optional:file:./target/reload-tests/operator.properties",
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=refresh,triage,health",
				"management.endpoint.health.show-details=always", "management.health.circuitbreakers.enabled=true",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"triage.policies.503.backoff.initial=1ms", "triage.policies.503.backoff.max=1ms" })
class RefreshEndpointTests extends LoopbackUpstream {

	private static final Path FILE = Path.of("target", "reload-tests", "operator.properties");

	@Value("${local.server.port}")
	int port;

	@Autowired
	ManagedClients clients;

	private final ObjectMapper json = new ObjectMapper();

	@BeforeAll
	static void startingFile() throws IOException {
		Files.createDirectories(FILE.getParent());
		Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=3\n");
	}

	@AfterAll
	static void removeFile() throws IOException {
		Files.deleteIfExists(FILE);
	}

	@Test
	void aChangedFileAndARefreshChangeTheTableAndABadFileIsRefused() throws Exception {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		catchThrowable(() -> this.inventory.item("1"));
		assertThat(wireCount()).as("the file's first table").isEqualTo(3);
		JsonNode startup = LocalJson.config(this.json, this.port);
		assertThat(startup.path("version").asLong()).isEqualTo(1);
		assertThat(startup.path("lastRejected").isNull()).isTrue();

		Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=1\n");
		Instant before = Instant.now();
		LocalHttp.Answer refreshed = LocalHttp.post(this.port, "/actuator/refresh");

		assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
		assertThat(refreshed.body()).contains("triage.clients.inventory.policies.503.max-attempts");
		upstream.resetRequests();
		catchThrowable(() -> this.inventory.item("2"));
		assertThat(wireCount()).as("the changed file's table").isEqualTo(1);
		JsonNode applied = LocalJson.config(this.json, this.port);
		assertThat(applied.path("version").asLong()).isEqualTo(2);
		assertThat(Instant.parse(applied.path("appliedAt").asText())).isAfterOrEqualTo(before.minusSeconds(1));

		Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=5\n"
				+ "triage.clients.inventory.policies.503.jitter-please=1\n");
		LocalHttp.post(this.port, "/actuator/refresh");

		upstream.resetRequests();
		catchThrowable(() -> this.inventory.item("3"));
		assertThat(wireCount()).as("the last valid table, nothing of the refused file").isEqualTo(1);
		JsonNode refused = LocalJson.config(this.json, this.port);
		assertThat(refused.path("version").asLong()).isEqualTo(2);
		assertThat(refused.at("/lastRejected/reason").asText()).contains("jitter-please");
		assertThat(refused.at("/lastRejected/at").asText()).isNotEmpty();
		assertThat(LocalHttp.get(this.port, "/actuator/triage").status()).isEqualTo(200);
	}

	@Test
	void anOpenBreakerIsShownOpenByHealthAfterARefresh() throws Exception {
		CircuitBreaker inUse = ((Resilience4jUpstreamBreaker) this.clients.find("inventory").channels().primary()
			.breaker()).circuitBreaker();
		inUse.transitionToOpenState();
		try {
			Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=3\n");
			LocalHttp.Answer refreshed = LocalHttp.post(this.port, "/actuator/refresh");
			assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);

			LocalHttp.Answer health = LocalHttp.get(this.port, "/actuator/health/circuitBreakers");
			assertThat(this.json.readTree(health.body()).at("/details/inventory/details/state").asText())
				.as(health.body()).isEqualTo("OPEN");
			assertThat(inUse.getState()).isEqualTo(CircuitBreaker.State.OPEN);
		}
		finally {
			inUse.reset();
		}
	}

	/**
	 * Reads the endpoint's {@code config} section.
	 */
	private static final class LocalJson {

		static JsonNode config(ObjectMapper json, int port) throws IOException {
			LocalHttp.Answer answer = LocalHttp.get(port, "/actuator/triage");
			assertThat(answer.status()).as(answer.body()).isEqualTo(200);
			return json.readTree(answer.body()).path("config");
		}

	}

}
