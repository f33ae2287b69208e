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

package dev.triage.restclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.engine.AttemptAbortInterceptor;
import dev.triage.support.FullBacklog;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A connect timeout of an HTTP service client on Apache HttpClient 5 reports the value it ran with (SPEC §6:
 * {@code configuredTimeout()}), which lives in the connection manager's connection configuration (where Spring
 * Boot's settings put it), as a Feign client's does: it was {@code null}.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.upstream.inventory=http://127.0.0.1:9", "test.upstream.billing=http://127.0.0.1:9" })
class ConnectTimeoutReportTests {

	@Autowired
	TriageHttpServices triage;

	@Test
	void aConnectTimeoutReportsTheConnectionConfigurationsValue() throws Exception {
		try (FullBacklog backlog = FullBacklog.open();
				CloseableHttpClient httpClient = AttemptAbortInterceptor
					.addTo(HttpClients.custom()
						.disableAutomaticRetries()
						.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
							.setDefaultConnectionConfig(
									ConnectionConfig.custom().setConnectTimeout(Timeout.ofMilliseconds(300)).build())
							.build()))
					.build()) {
			InventoryClient inventory = this.triage.createClient("connecting", InventoryClient.class, RestClient.builder()
				.baseUrl(backlog.url())
				.requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
				.build());

			Throwable thrown = catchThrowable(() -> inventory.order("{}"));

			assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
			UpstreamTransportException failure = (UpstreamTransportException) thrown;
			assertThat(failure.failure()).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
			assertThat(failure.configuredTimeout()).isEqualTo(Duration.ofMillis(300));
			assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		}
	}

}
