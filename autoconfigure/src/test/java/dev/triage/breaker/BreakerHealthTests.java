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

package dev.triage.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.support.LocalHttp;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With Resilience4j's health indicator on ({@code management.health.circuitbreakers.enabled}), Triage's breakers
 * show in {@code /actuator/health} without any per-breaker setting, and an open one does not take the application
 * down.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=health",
				"management.endpoint.health.show-details=always", "management.health.circuitbreakers.enabled=true" })
class BreakerHealthTests extends LoopbackUpstream {

	@Value("${local.server.port}")
	int port;

	@Autowired
	CircuitBreakerRegistry breakers;

	@Test
	void triagesBreakersShowInHealthAndAnOpenOneDoesNotTakeTheApplicationDown() throws Exception {
		JsonNode health = health();
		assertThat(health.at("/components/circuitBreakers/details/inventory/details/state").asText()).isEqualTo("CLOSED");
		assertThat(health.at("/components/circuitBreakers/details/billing").isMissingNode()).isFalse();

		this.breakers.circuitBreaker("inventory").transitionToOpenState();

		JsonNode open = health();
		assertThat(open.at("/components/circuitBreakers/details/inventory/details/state").asText()).isEqualTo("OPEN");
		assertThat(open.path("status").asText()).isEqualTo("UP");
	}

	private JsonNode health() throws Exception {
		return new ObjectMapper().readTree(LocalHttp.get(this.port, "/actuator/health").body());
	}

}
