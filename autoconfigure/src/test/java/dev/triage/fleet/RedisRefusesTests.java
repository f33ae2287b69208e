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

package dev.triage.fleet;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.triage.fleet.FleetOfInstances.inventory;
import static dev.triage.fleet.FleetOfInstances.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.support.RedisServerExtension;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC §13, Redis that answers but refuses the instance (a user it does not know, a wrong password): the instance protects its upstreams on
 * its own, as when Redis is down, and its WARN says what Redis answered, not that its answers came late. The
 * password itself is in no log line.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRefusesTests {

	private static final String PASSWORD = "s3cr3t-4711-wrong";

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@RegisterExtension
	static RedisServerExtension redis = new RedisServerExtension();

	@Test
	void aWrongPasswordIsSaidAsWhatRedisAnsweredAndTheInstanceGoesOnAlone(CapturedOutput output) throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(),
				"triage.fleet.store=redis", "triage.fleet.timeout=50ms", "spring.data.redis.username=nobody-here",
				"spring.data.redis.password=" + PASSWORD)) {
			int logged = output.length();
			ConfigurableApplicationContext a = fleet.start();

			assertThat(inventory(a).item("ok")).isEqualTo("ok");
			assertThat(status(a).connected()).isFalse();
			// Lettuce's connection may fail after triage.fleet.timeout: the answer comes in its own time.
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (!output.toString().substring(logged).contains("WRONGPASS") && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			String said = output.toString().substring(logged);
			assertThat(said).contains("Redis of triage.fleet is unavailable")
				.containsOnlyOnce("WRONGPASS invalid username-password pair")
				.doesNotContain(PASSWORD);
			assertThat(inventory(a).item("ok")).isEqualTo("ok");
			assertThat(status(a).connected()).isFalse();
		}
	}

}
