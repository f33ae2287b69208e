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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.triage.fleet.FleetOfInstances.inventory;
import static dev.triage.fleet.FleetOfInstances.pause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.Refusal;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.RedisServerExtension;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC §13, {@code triage.fleet.store=local} (the default): even with a Redis connection configured, nothing
 * is written to Redis and nothing is shared; a fleet rate limit is each instance's share of it.
 */
class LocalFleetTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@RegisterExtension
	static RedisServerExtension redis = new RedisServerExtension();

	@Test
	void theLocalStoreSendsNoCommandToRedisAndSharesNothing() throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/busy"))
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		redis.server().command("CONFIG", "RESETSTAT");
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(),
				"triage.clients.inventory.policies.429.max-attempts=1", "triage.fleet.instances=2",
				"triage.clients.inventory.fleet-rate-limit.limit-for-period=6",
				"triage.clients.inventory.fleet-rate-limit.limit-refresh-period=1h")) {
			ConfigurableApplicationContext a = fleet.start();
			ConfigurableApplicationContext b = fleet.start();

			int passed = 0;
			for (int i = 0; i < 5; i++) {
				Throwable thrown = catchThrowable(() -> inventory(a).item("ok"));
				if (thrown == null) {
					passed++;
				}
				else {
					assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.RATE_LIMITED);
				}
			}
			catchThrowable(() -> inventory(b).item("busy"));
			Thread.sleep(300);

			assertThat(passed).as("a's share: 6 / 2 instances").isEqualTo(3);
			assertThat(pause(b).isPaused()).isTrue();
			assertThat(pause(a).isPaused()).as("nothing is shared").isFalse();
			assertThat(upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount()).isEqualTo(4);
			assertThat(a.getBeansOfType(FleetStore.class)).isEmpty();
		}
		assertThat(redis.server().dbSize()).isZero();
		String stats = (String) redis.server().command("INFO", "commandstats");
		List<String> commands = stats.lines().filter((line) -> line.startsWith("cmdstat_")).toList();
		assertThat(commands).as("only this test's own commands reached Redis")
			.allSatisfy((line) -> assertThat(line).matches("cmdstat_(config|info|dbsize|ping)[|:].*"));
	}

}
