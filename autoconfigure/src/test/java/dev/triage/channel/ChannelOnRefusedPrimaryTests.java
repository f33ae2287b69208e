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
import java.net.ServerSocket;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A primary nobody listens on: connection refused fails over to the backup at once.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class ChannelOnRefusedPrimaryTests {

	@RegisterExtension
	static WireMockExtension backup = WireMocks.loopback();

	@DynamicPropertySource
	static void urls(DynamicPropertyRegistry registry) throws IOException {
		int closed;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			closed = socket.getLocalPort();
		}
		int port = closed;
		registry.add("test.upstream.inventory", () -> "http://127.0.0.1:" + port);
		registry.add("test.upstream.billing", () -> "http://127.0.0.1:" + port);
		registry.add("triage.clients.inventory.channels.backup", backup::baseUrl);
	}

	@Autowired
	InventoryClient inventory;

	@Test
	void connectionRefusedFailsOverToTheBackup() {
		backup.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("from backup")));

		assertThat(this.inventory.item("1")).isEqualTo("from backup");
		assertThat(backup.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount()).isEqualTo(1);
	}

}
