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

package dev.triage.channel;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.support.BillingClient;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The built-in table's failover rows with a backup channel up (SPEC §3, §8): a primary that refuses connections
 * sent nothing, so even a POST fails over; a primary that accepts and never answers times out, and a GET fails
 * over. Counted at the backup and at the hanging primary.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.billing.read-timeout=500",
				"triage.throttle.enabled=false", "logging.level.dev.triage.attempts=INFO" })
@ExtendWith(OutputCaptureExtension.class)
class FailoverDefaultsTests {

	@RegisterExtension
	static WireMockExtension backup = WireMocks.loopback();

	static Socket refusing;

	static RawServer hanging;

	static RawServer billingBackup;

	@DynamicPropertySource
	static void urls(DynamicPropertyRegistry registry) throws IOException {
		// Bound but never listening: connections to it are refused, and no other process can take the port.
		refusing = new Socket();
		refusing.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		int closed = refusing.getLocalPort();
		hanging = new RawServer();
		hanging.answer((out) -> Thread.sleep(Long.MAX_VALUE));
		billingBackup = new RawServer();
		billingBackup.answer((out) -> RawServer.write(out,
				"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nfrom backup"));
		registry.add("test.upstream.inventory", () -> "http://127.0.0.1:" + closed);
		registry.add("triage.clients.inventory.channels.backup", backup::baseUrl);
		registry.add("test.upstream.billing", hanging::url);
		registry.add("triage.clients.billing.channels.backup", billingBackup::url);
	}

	@AfterAll
	static void close() throws IOException {
		refusing.close();
		hanging.close();
		billingBackup.close();
	}

	@Autowired
	InventoryClient inventory;

	@Autowired
	BillingClient billing;

	@BeforeEach
	void reset() {
		backup.resetAll();
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("from backup")));
	}

	@Test
	void aPostFailsOverWhenThePrimaryRefusesConnections(CapturedOutput output) {
		assertThat(this.inventory.order("{\"sku\":\"1\"}")).isEqualTo("from backup");

		assertThat(backupRequests()).isEqualTo(1);
		// The row allows one attempt: the failover goes past it, and its line does not read "attempt 1 of 1".
		assertThat(output.getAll().lines().filter((line) -> line.contains("triage attempt client=inventory")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(": attempt 1 failed (connection-refused), retrying on "
					+ "backup in 0ms (max-attempts 1 used up: one attempt per remaining channel)"));
	}

	@Test
	void aGetFailsOverWhenThePrimaryNeverAnswers() {
		int before = hanging.requests();
		int backupBefore = billingBackup.requests();

		assertThat(this.billing.invoice("1")).isEqualTo("from backup");

		assertThat(hanging.requests() - before).isEqualTo(1);
		assertThat(billingBackup.requests() - backupBefore).isEqualTo(1);
	}

	private static long backupRequests() {
		return backup.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
