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
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.RedisServerExtension;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC §13, shared pause: three instances on one real Redis; a {@code Retry-After} one of them gets pauses all
 * of them within a second, extend-only, and an instance started during the pause learns it at startup.
 */
class SharedPauseTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@RegisterExtension
	static RedisServerExtension redis = new RedisServerExtension();

	@BeforeEach
	void stubs() {
		upstream.stubFor(get(urlPathEqualTo("/items/busy"))
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@Test
	void aPauseOneInstanceLearnsPausesTheFleetWithinASecondAndALateJoinerLearnsIt() throws Exception {
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(), "triage.fleet.store=redis",
				"triage.clients.inventory.policies.429.max-attempts=1")) {
			ConfigurableApplicationContext a = fleet.start();
			ConfigurableApplicationContext b = fleet.start();
			ConfigurableApplicationContext c = fleet.start();

			Throwable rejected = catchThrowable(() -> inventory(a).item("busy"));
			long answered = System.nanoTime();
			Instant answeredAt = Instant.now();
			assertThat(rejected).isInstanceOf(UpstreamResponseException.class);
			for (ConfigurableApplicationContext other : List.of(b, c)) {
				while (!pause(other).isPaused() && System.nanoTime() - answered < Duration.ofSeconds(10).toNanos()) {
					Thread.sleep(2);
				}
				assertThat(Duration.ofNanos(System.nanoTime() - answered)).as("the pause reached another instance")
					.isLessThan(Duration.ofSeconds(1));
			}
			for (ConfigurableApplicationContext other : List.of(b, c)) {
				Throwable refused = catchThrowable(() -> inventory(other).item("ok"));
				assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
				assertThat(((UpstreamUnavailableException) refused).refusal()).isEqualTo(Refusal.PAUSED);
			}
			// Retry-After: 30 from when the 429 came (timed against the moment the caller got it, not against the
			// moments later asserts run at: starting an instance on a loaded machine may take seconds)
			Instant until = pause(b).until();
			assertThat(until).isBetween(answeredAt.plusSeconds(25), answeredAt.plusSeconds(31));
			assertThat(wireCount()).as("only the first instance's 429 reached the upstream").isEqualTo(1);

			ConfigurableApplicationContext late = fleet.start();

			assertThat(pause(late).isPaused()).as("an instance started during the pause knows it at once").isTrue();
			assertThat(pause(late).until()).isCloseTo(until, within(1, ChronoUnit.SECONDS));
			Throwable refused = catchThrowable(() -> inventory(late).item("ok"));
			assertThat(((UpstreamUnavailableException) refused).refusal()).isEqualTo(Refusal.PAUSED);
			assertThat(wireCount()).isEqualTo(1);
			long left = Duration.between(Instant.now(), until).toMillis();
			Object ttl = redis.server().command("PTTL", fleet.prefix() + "{inventory}:pause:primary");
			assertThat((Long) ttl).as("the key expires when the pause ends").isBetween(left - 1_000L, left + 1_000L);
		}
	}

	@Test
	void aLaterPauseExtendsTheFleetsAndAShorterOneNeverShortensIt() throws Exception {
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(), "triage.fleet.store=redis",
				"triage.clients.inventory.policies.429.max-attempts=1")) {
			ConfigurableApplicationContext a = fleet.start();
			ConfigurableApplicationContext b = fleet.start();
			ConfigurableApplicationContext c = fleet.start();
			String key = fleet.prefix() + "{inventory}:pause:primary";

			pause(a).pauseFor(Duration.ofSeconds(20));
			awaitUntilAfter(c, Instant.now().plusSeconds(15));
			pause(b).pauseFor(Duration.ofSeconds(60));
			awaitUntilAfter(a, Instant.now().plusSeconds(50));
			awaitUntilAfter(c, Instant.now().plusSeconds(50));
			assertThat((Long) redis.server().command("PTTL", key)).isGreaterThan(50_000L);

			// another instance (or an older Triage) writes a shorter pause: Redis keeps the longer one
			Object left = redis.server().command("EVAL", SharedPauses.PAUSE.getScriptAsString(), "1", key, "5000", "other",
					fleet.prefix() + "pauses", "inventory\nprimary\n");
			pause(c).pauseFor(Duration.ofSeconds(5));

			assertThat((Long) left).isGreaterThan(50_000L);
			assertThat((Long) redis.server().command("PTTL", key)).isGreaterThan(50_000L);
			for (ConfigurableApplicationContext instance : List.of(a, b, c)) {
				assertThat(pause(instance).until()).isAfter(Instant.now().plusSeconds(50));
			}
		}
	}

	private long statsRead;

	@Test
	void theRegularReadOfThePausesOpensNoConnection() throws Exception {
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(),
				"triage.fleet.store=redis")) {
			ConfigurableApplicationContext a = fleet.start();
			inventory(a).item("ok");
			long connections = stat("INFO", "stats", "total_connections_received");
			this.statsRead = 0;
			long reads = stat("INFO", "commandstats", "cmdstat_pttl:calls");

			// every 5 s each instance reads its pauses again (an announcement may have been lost): wait for two reads
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (stat("INFO", "commandstats", "cmdstat_pttl:calls") < reads + 4) {
				assertThat(System.nanoTime()).as("two reads within a minute").isLessThan(deadline);
				Thread.sleep(100);
			}

			long after = stat("INFO", "stats", "total_connections_received");
			// each of this test's own INFO commands since the first is a connection of its own
			assertThat(after - this.statsRead).as("no connection opened for a read").isEqualTo(connections);
		}
	}

	/** A number from an INFO section: {@code name:value} or, in commandstats, {@code cmdstat_x:calls=N,...}. */
	private long stat(String command, String section, String name) throws Exception {
		this.statsRead++;
		String info = (String) redis.server().command(command, section);
		for (String line : info.split("\r\n")) {
			if (line.startsWith(name.contains(":") ? name.substring(0, name.indexOf(':')) + ":" : name + ":")) {
				String value = line.substring(line.indexOf(':') + 1);
				if (name.contains(":")) {
					String field = name.substring(name.indexOf(':') + 1) + "=";
					value = value.substring(value.indexOf(field) + field.length()).split(",")[0];
				}
				return Long.parseLong(value.trim());
			}
		}
		return 0;
	}

	private static void awaitUntilAfter(ConfigurableApplicationContext instance, Instant instant)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			Instant until = pause(instance).until();
			if (until != null && until.isAfter(instant)) {
				return;
			}
			Thread.sleep(5);
		}
		assertThat(pause(instance).until()).as("the announced pause arrived").isAfter(instant);
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
