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

package dev.triage.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.RestClient;

/**
 * An HTTP service client created with {@code createClient} after the application started gets the overload
 * gauges of a client known at startup (SPEC §11: the same meters), each once, whoever creates it again.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=late-client-gauges", "test.upstream.inventory=http://127.0.0.1:9",
				"test.upstream.billing=http://127.0.0.1:9" })
class LateClientGaugesTests {

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@Autowired
	MeterRegistry registry;

	@BeforeAll
	static void maintenance() throws IOException {
		upstream = new RawServer();
		upstream.answer((out) -> RawServer.write(out,
				"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 120\r\nContent-Length: 0\r\n\r\n"));
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@Test
	void aClientCreatedAfterStartupHasItsOverloadGaugesEachOnce() {
		assertThat(this.registry.find("triage.paused").tag("client", "late-gauges").gauges()).isEmpty();
		InventoryClient late = this.triage.createClient("late-gauges", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).build());

		assertThat(catchThrowable(() -> late.item("1"))).isInstanceOf(UpstreamResponseException.class);
		this.triage.createClient("late-gauges", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).build());

		assertThat(gauge("triage.paused").value()).as("paused by the 503's Retry-After: 120").isEqualTo(1);
		assertThat(gauge("triage.retry.budget.remaining").value()).isGreaterThanOrEqualTo(0);
		assertThat(gauge("triage.throttle.drop.probability").value()).isBetween(0.0, 1.0);
		assertThat(this.registry.find("triage.paused").tag("client", "inventory").gauges())
			.as("a client known at startup keeps its one gauge").hasSize(1);
	}

	private Gauge gauge(String name) {
		assertThat(this.registry.find(name).tag("client", "late-gauges").gauges()).as(name).hasSize(1);
		return this.registry.find(name).tag("client", "late-gauges").gauge();
	}

}
