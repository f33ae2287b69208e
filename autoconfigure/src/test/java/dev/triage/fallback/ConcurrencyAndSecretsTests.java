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

package dev.triage.fallback;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.triage.UpstreamException;
import dev.triage.CallRecord;
import dev.triage.support.InventoryClient;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;

/**
 * Many threads against a flapping upstream, and what reaches logs and messages.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "logging.level.dev.triage.calls=DEBUG", "resilience4j.circuitbreaker.instances.inventory.sliding-window-type=COUNT_BASED",
				"resilience4j.circuitbreaker.instances.inventory.sliding-window-size=20",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=20",
				"resilience4j.circuitbreaker.instances.inventory.wait-duration-in-open-state=100ms",
				"resilience4j.circuitbreaker.instances.inventory.permitted-number-of-calls-in-half-open-state=5",
				"spring.cloud.openfeign.httpclient.max-connections-per-route=60",
				"logging.level.dev.triage.calls=DEBUG" })
@Import(RecordingObserverConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class ConcurrencyAndSecretsTests extends LoopbackUpstream {

	@Autowired
	RecordingObserver observer;

	@Autowired
	CircuitBreakerRegistry registry;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		this.observer.clear();
		this.registry.circuitBreaker("inventory").reset();
	}

	@Test
	void fiftyThreadsAgainstAFlappingUpstreamSeeOnlyTypedExceptionsAndConsistentCounts() throws Exception {
		upstream.stubFor(any(urlPathMatching("/items/ok-.*")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(any(urlPathMatching("/items/bad-.*"))
			.willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
		int threads = 50;
		int callsPerThread = 20;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Throwable> unexpected = new CopyOnWriteArrayList<>();
		List<Future<?>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			futures.add(pool.submit(() -> {
				start.await();
				for (int i = 0; i < callsPerThread; i++) {
					String id = (ThreadLocalRandom.current().nextInt(3) == 0) ? "bad-" + i : "ok-" + i;
					try {
						this.inventory.item(id);
					}
					catch (UpstreamException expected) {
						// typed: fine
					}
					catch (Throwable other) {
						unexpected.add(other);
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> future : futures) {
			future.get(120, TimeUnit.SECONDS);
		}
		pool.shutdown();

		assertThat(unexpected).isEmpty();
		assertThat(this.observer.calls).hasSize(threads * callsPerThread);
		long wire = wireCount();
		int reportedAttempts = this.observer.calls.stream().mapToInt(CallRecord::attempts).sum();
		assertThat(reportedAttempts).as("every request on the wire is counted once").isEqualTo((int) wire);
		assertThat(this.observer.attempts).hasSize((int) wire);
		long shortCircuited = this.observer.calls.stream().filter((c) -> c.outcome() == dev.triage.CallOutcome.SHORT_CIRCUITED).count();
		assertThat(shortCircuited).as("a third of calls fail: the breaker opened at some point").isPositive();
		CircuitBreaker.Metrics metrics = this.registry.circuitBreaker("inventory").getMetrics();
		assertThat(metrics.getNumberOfBufferedCalls()).isLessThanOrEqualTo(20);
	}

	@Test
	void authorizationAndCookieValuesNeverReachLogsOrMessages(CapturedOutput output) {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")
			.withHeader("Set-Cookie", "session=cookie-s3cr3t")));

		Throwable thrown = catchThrowable(
				() -> this.inventory.profile("Bearer auth-s3cr3t", "session=cookie-s3cr3t; theme=dark"));
		catchThrowable(() -> this.inventory.search("query-s3cr3t", "Bearer auth-s3cr3t"));

		assertThat(thrown).isInstanceOf(UpstreamException.class);
		assertThat(output).contains("triage call client=inventory").contains("InventoryClient#profile")
			.contains("/search?q=***");
		assertThat(output.toString()).doesNotContain("s3cr3t");
		assertThat(thrown.getMessage()).doesNotContain("s3cr3t");
		assertThat(thrown.toString()).doesNotContain("s3cr3t");
	}

}
