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
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.triage.Refusal;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.RedisServerExtension;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC §13, fleet rate limit: three instances, each calling as fast as it can from two threads, send the
 * upstream what one limit allows, not three times that, at {@code lease} 1 and 5. Counted at the upstream.
 */
class FleetRateLimitTests {

	private static final int LIMIT = 20;

	private static final Duration PERIOD = Duration.ofSeconds(1);

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@RegisterExtension
	static RedisServerExtension redis = new RedisServerExtension();

	@BeforeEach
	void stubs() {
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 5 })
	void theFleetSendsAtMostTheLimitPerPeriodPlusWhatIsLeasedAndUnused(int lease) throws Exception {
		try (FleetOfInstances fleet = new FleetOfInstances(upstream.baseUrl(), redis.server().port(), "triage.fleet.store=redis",
				"triage.fleet.timeout=1s", "triage.fleet.instances=3", "triage.clients.inventory.throttle.enabled=false",
				"triage.clients.inventory.fleet-rate-limit.limit-for-period=" + LIMIT,
				"triage.clients.inventory.fleet-rate-limit.limit-refresh-period=" + PERIOD.toMillis() + "ms",
				"triage.clients.inventory.fleet-rate-limit.lease=" + lease)) {
			List<ConfigurableApplicationContext> instances = List.of(fleet.start(), fleet.start(), fleet.start());
			upstream.resetRequests();
			AtomicInteger refused = new AtomicInteger();
			ExecutorService callers = Executors.newFixedThreadPool(6);
			long start = System.nanoTime();
			long end = start + PERIOD.multipliedBy(5).dividedBy(2).toNanos();
			try {
				List<Future<?>> running = new ArrayList<>();
				for (ConfigurableApplicationContext instance : instances) {
					for (int thread = 0; thread < 2; thread++) {
						running.add(callers.submit(() -> {
							while (System.nanoTime() < end) {
								try {
									inventory(instance).item("ok");
								}
								catch (UpstreamUnavailableException ex) {
									assertThat(ex.refusal()).isEqualTo(Refusal.RATE_LIMITED);
									refused.incrementAndGet();
									sleep(2);
								}
							}
							return null;
						}));
					}
				}
				for (Future<?> caller : running) {
					caller.get();
				}
			}
			finally {
				callers.shutdownNow();
			}
			long took = System.nanoTime() - start;
			long periods = (took + PERIOD.toNanos() - 1) / PERIOD.toNanos();
			long sent = upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();

			assertThat(instances).allSatisfy((instance) -> assertThat(FleetOfInstances.status(instance).connected())
				.as("Redis answered throughout").isTrue());
			assertThat(refused.get()).as("the callers asked for more than the limit").isPositive();
			assertThat(sent).as("at least one period's permits reached the upstream").isGreaterThanOrEqualTo(LIMIT);
			assertThat(sent).as("at most the limit in each of the %d periods the run touched", periods)
				.isLessThanOrEqualTo(periods * LIMIT);
			// any window of one period: the limit plus at most what each instance had leased before it
			List<Long> times = new ArrayList<>();
			for (ServeEvent event : upstream.getAllServeEvents()) {
				times.add(event.getRequest().getLoggedDate().getTime());
			}
			times.sort(null);
			for (int i = 0; i < times.size(); i++) {
				int inWindow = 0;
				for (int j = i; j < times.size() && times.get(j) < times.get(i) + PERIOD.toMillis(); j++) {
					inWindow++;
				}
				assertThat(inWindow).as("requests in the period from the %dth", i)
					.isLessThanOrEqualTo(LIMIT + 2 * instances.size() * lease);
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
