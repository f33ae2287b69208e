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
import static dev.triage.fleet.FleetOfInstances.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.actuate.RecentFailures;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.engine.ManagedClients;
import dev.triage.support.RedisServerExtension;
import dev.triage.support.WireMocks;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC §13, Redis unavailable: Redis is killed in the middle of the run and started again. No call waits on
 * Redis longer than {@code triage.fleet.timeout} (each call is timed against it plus a generous slack for the
 * call itself on a loaded machine); each instance falls back to its own protection (its share of the fleet
 * limit, pauses it learns itself), says so once, counts {@code triage.fleet.errors}, shows it on the endpoint,
 * and goes back to Redis by itself.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisDownTests {

	private static final Duration TIMEOUT = Duration.ofMillis(50);

	/** What a call may take besides waiting on Redis: one loopback request on a loaded 2-core machine. */
	private static final Duration SLACK = Duration.ofSeconds(1);

	private static final String UNAVAILABLE = "Redis of triage.fleet is unavailable";

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@RegisterExtension
	static RedisServerExtension redis = new RedisServerExtension();

	@Test
	void aKilledRedisHoldsNoCallerPastTheTimeoutTheFleetFallsBackAndRecovers(CapturedOutput output) throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/items/busy"))
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(), "triage.fleet.store=redis",
				"triage.fleet.timeout=" + TIMEOUT.toMillis() + "ms", "triage.fleet.instances=3",
				"triage.clients.inventory.throttle.enabled=false", "triage.clients.inventory.policies.429.max-attempts=1",
				"triage.clients.inventory.fleet-rate-limit.limit-for-period=30",
				"triage.clients.inventory.fleet-rate-limit.limit-refresh-period=1h",
				"triage.clients.inventory.fleet-rate-limit.lease=1")) {
			List<ConfigurableApplicationContext> instances = List.of(fleet.start(), fleet.start(), fleet.start());
			ConfigurableApplicationContext a = instances.get(0);
			ConfigurableApplicationContext b = instances.get(1);
			List<Duration> took = new ArrayList<>();
			for (ConfigurableApplicationContext instance : instances) {
				inventory(instance).item("ok"); // the first call of an instance creates its client: not timed
				timed(took, () -> inventory(instance).item("ok"));
			}
			assertThat(redis.server().command("EXISTS", fleet.prefix() + "{inventory}:rate")).isEqualTo(1L);

			redis.server().kill();
			int logged = output.length();
			upstream.resetRequests();
			assertThat(timed(took, () -> inventory(b).item("busy"))).isInstanceOf(UpstreamResponseException.class);
			int refused = 0;
			for (ConfigurableApplicationContext instance : instances) {
				for (int i = 0; i < 12; i++) {
					Throwable thrown = timed(took, () -> inventory(instance).item("ok"));
					if (instance == b && pause(b).isPaused()) {
						assertThat(((UpstreamUnavailableException) thrown).refusal()).isIn(Refusal.PAUSED,
								Refusal.RATE_LIMITED);
						refused++;
					}
					else if (thrown != null) {
						assertThat(((UpstreamUnavailableException) thrown).refusal()).isEqualTo(Refusal.RATE_LIMITED);
						refused++;
					}
				}
			}
			await(() -> instances.stream().noneMatch((instance) -> status(instance).connected()));
			assertThat(wireCount()).as("each instance sends at most its share, 30 / 3").isLessThanOrEqualTo(30);
			assertThat(refused).as("12 calls each, b's 429 included: 10 permits each").isGreaterThanOrEqualTo(7);
			assertThat(pause(b).isPaused()).as("b learns its pause itself").isTrue();
			assertThat(pause(a).isPaused()).as("nobody tells a while Redis is away").isFalse();
			String outage = output.toString().substring(logged);
			assertThat(count(outage, UNAVAILABLE)).as("one WARN per instance per outage").isBetween(1, 3);
			assertThat(a.getBean(MeterRegistry.class).get("triage.fleet.errors").functionCounter().count()).isPositive();
			assertThat(new TriageEndpoint(a.getBean(ManagedClients.class), new RecentFailures(Clock.systemUTC()),
					Map.of(), status(a)).clients().fleet()).isEqualTo(new TriageEndpoint.FleetDescriptor("redis", false));

			redis.server().start();
			await(() -> instances.stream().allMatch((instance) -> status(instance).connected()));
			await(() -> instances.stream().allMatch((instance) -> pause(instance).isPaused()));
			assertThat(count(output.toString().substring(logged), UNAVAILABLE)).isEqualTo(count(outage, UNAVAILABLE));
			assertThat((Long) redis.server().command("PTTL", fleet.prefix() + "{inventory}:pause:primary"))
				.as("the pause b learnt alone is in Redis again").isGreaterThan(20_000L);
			assertThat(took).as("no call waited on Redis longer than the timeout")
				.allSatisfy((duration) -> assertThat(duration).isLessThan(TIMEOUT.plus(SLACK)));
		}
	}

	@Test
	void anInstanceStartedWhileRedisIsDownStartsOnItsOwnAndJoinsTheFleetWhenRedisReturns(CapturedOutput output)
			throws Exception {
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(get(urlPathEqualTo("/items/busy"))
			.willReturn(aResponse().withStatus(429).withHeader("Retry-After", "30")));
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(),
				"triage.fleet.store=redis", "triage.fleet.timeout=" + TIMEOUT.toMillis() + "ms",
				"triage.clients.inventory.throttle.enabled=false",
				"triage.clients.inventory.policies.429.max-attempts=1")) {
			redis.server().kill();
			int logged = output.length();

			ConfigurableApplicationContext a = fleet.start();

			assertThat(status(a).connected()).isFalse();
			assertThat(inventory(a).item("ok")).isEqualTo("ok");
			assertThat(count(output.toString().substring(logged), UNAVAILABLE)).as("said once").isEqualTo(1);

			redis.server().start();
			await(() -> status(a).connected());
			String channel = fleet.prefix() + "pauses";
			await(() -> subscribers(channel) == 1);
			ConfigurableApplicationContext b = fleet.start();
			assertThat(subscribers(channel)).isEqualTo(2);
			assertThat(catchThrowable(() -> inventory(b).item("busy"))).isInstanceOf(UpstreamResponseException.class);
			await(() -> pause(a).isPaused());
		}
	}

	private static long subscribers(String channel) {
		try {
			return (Long) ((List<?>) redis.server().command("PUBSUB", "NUMSUB", channel)).get(1);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	private static Throwable timed(List<Duration> took, Runnable call) {
		long start = System.nanoTime();
		Throwable thrown = catchThrowable(call::run);
		took.add(Duration.ofNanos(System.nanoTime() - start));
		return thrown;
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("the condition came true within a minute").isLessThan(deadline);
			Thread.sleep(20);
		}
	}

	private static int count(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
