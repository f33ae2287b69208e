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
package dev.triage.overload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.triage.Refusal;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import dev.triage.UpstreamUnavailableException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * A Resilience4j bulkhead named after the client (SPEC §8.5): every attempt runs inside one of its permits; a
 * call that finds none free within the bulkhead's wait is refused {@code BULKHEAD_FULL} without reaching the
 * wire, and the permit comes back when the attempt is over.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "resilience4j.bulkhead.instances.inventory.max-concurrent-calls=1",
				"resilience4j.bulkhead.instances.inventory.max-wait-duration=0" })
class BulkheadTests extends LoopbackUpstream {

	@Autowired
	BulkheadRegistry bulkheads;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(get(urlPathEqualTo("/items/slow")).willReturn(aResponse().withStatus(200).withBody("slow")
			.withFixedDelay(1_500)));
		upstream.stubFor(get(urlPathEqualTo("/items/ok")).willReturn(aResponse().withStatus(200).withBody("ok")));
	}

	@Test
	void aCallFindingEveryPermitTakenIsRefusedWithoutReachingTheWireAndThePermitComesBack() throws Exception {
		CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> this.inventory.item("slow"));
		awaitPermitTaken();

		Throwable refused = catchThrowable(() -> this.inventory.item("ok"));

		assertThat(refused).isInstanceOf(UpstreamUnavailableException.class);
		assertThat(((UpstreamUnavailableException) refused).refusal()).isEqualTo(Refusal.BULKHEAD_FULL);
		assertThat(((UpstreamUnavailableException) refused).attempts()).isZero();
		assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("slow");
		assertThat(wireCount()).as("only the slow call reached the wire").isEqualTo(1);
		assertThat(this.inventory.item("ok")).as("the permit came back when the attempt was over").isEqualTo("ok");
	}

	private void awaitPermitTaken() throws InterruptedException {
		Bulkhead bulkhead = this.bulkheads.bulkhead("inventory");
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (bulkhead.getMetrics().getAvailableConcurrentCalls() > 0 && System.nanoTime() < until) {
			Thread.sleep(5);
		}
		assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).as("the slow call holds the permit").isZero();
	}

}
