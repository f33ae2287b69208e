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

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.web.client.RestClient;

/**
 * A change refused before any was applied leaves the startup settings in force for every client, the ones met
 * afterwards included: Spring Cloud's rebinder writes the refused values into the {@code triage.*} properties
 * bean after Triage refused them, and a client made then must not be built from that bean.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.policies.503.backoff.initial=1ms", "triage.policies.503.backoff.max=1ms",
				"triage.policies.503.max-attempts=3" })
class RefusedChangeTests extends LoopbackUpstream {

	@Autowired
	ConfigurableApplicationContext context;

	@Autowired
	ConfigHistory history;

	@Autowired
	TriageHttpServices triage;

	@Test
	void aClientMadeAfterARefusedChangeHasTheStartupTable() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		Map<String, Object> refused = new HashMap<>(Map.of("triage.policies.503.max-attempts", "1",
				"triage.policies.503.backoff.multiplier", "-3"));
		this.context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("operator", refused));
		try {
			this.context.publishEvent(new EnvironmentChangeEvent(this.context, Set.copyOf(refused.keySet())));
			assertThat(this.history.status().lastRejected()).as("the change was refused").isNotNull();

			InventoryClient late = this.triage.createClient("catalog", InventoryClient.class,
					RestClient.builder().baseUrl(upstream.baseUrl()).build());
			Throwable thrown = catchThrowable(() -> late.item("1"));

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			assertThat(wireCount()).as("the startup table: 503 tried 3 times").isEqualTo(3);
			assertThat(this.history.status().version()).isEqualTo(1);
		}
		finally {
			this.context.getEnvironment().getPropertySources().remove("operator");
			this.context.publishEvent(new EnvironmentChangeEvent(this.context, Set.copyOf(refused.keySet())));
		}
	}

}
