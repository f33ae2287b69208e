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

import java.io.IOException;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient} on the JDK's {@code HttpURLConnection} or {@code HttpClient}, put under a client's table
 * (SPEC §11: the wire sees what the table says). Both send a GET again by themselves, once, when its answer fails to
 * arrive, which nothing switches off: the upstream gets each attempt twice. Triage says so once per client, naming
 * the way back; Spring's default request factory, which Triage builds on Apache HttpClient 5, sends once per
 * attempt.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=jdk-request-factory", "test.upstream.inventory=http://127.0.0.1:9",
				"test.upstream.billing=http://127.0.0.1:9", "triage.policies.connection-reset.backoff.initial=1ms" })
class JdkRequestFactoryTests {

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@BeforeAll
	static void closeWithoutAnswering() throws IOException {
		upstream = new RawServer();
		upstream.answer((out) -> {
			// read the request, then close without answering
		});
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@Test
	void onHttpUrlConnectionEachAttemptIsSentTwiceAndSaidOnce(CapturedOutput output) {
		assertSentTwiceAndSaid("on-simple", new SimpleClientHttpRequestFactory(), output,
				"Client 'on-simple': its RestClient's request factory sends with the JDK's HttpURLConnection");
	}

	@Test
	void onTheJdkHttpClientEachAttemptIsSentTwiceAndSaidOnce(CapturedOutput output) {
		assertSentTwiceAndSaid("on-jdk", new JdkClientHttpRequestFactory(), output,
				"Client 'on-jdk': its RestClient's request factory sends with the JDK's HttpClient");
	}

	/**
	 * HttpURLConnection sends a request with a body without reading its answer: the reset (or timeout) instead of
	 * the status line came after Triage's interceptor had returned, and the caller got RestClient's own
	 * {@code ResourceAccessException}.
	 */
	@Test
	void aPostWhoseAnswerFailsIsATransportFailureOnBothJdkClients() {
		for (ClientHttpRequestFactory factory : new ClientHttpRequestFactory[] { new SimpleClientHttpRequestFactory(),
				new JdkClientHttpRequestFactory() }) {
			InventoryClient inventory = this.triage.createClient("posting", InventoryClient.class,
					RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());

			Throwable thrown = catchThrowable(() -> inventory.order("{}"));

			assertThat(thrown).as(factory.getClass().getSimpleName()).isInstanceOf(UpstreamTransportException.class);
			assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
			assertThat(((UpstreamTransportException) thrown).attempts()).as("a POST: one attempt").isEqualTo(1);
		}
	}

	/**
	 * Said once per client of an application: another application in the same JVM (a test's second context) with
	 * a client of the same name on a JDK client is told too.
	 */
	@Test
	void anotherApplicationWithAClientOfTheSameNameIsToldToo(CapturedOutput output) {
		String warning = "Client 'twice': its RestClient's request factory sends with the JDK's HttpURLConnection";
		this.triage.createClient("twice", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(new SimpleClientHttpRequestFactory()).build());
		assertThat(output.getOut().split(warning, -1)).as("said once").hasSize(2);
		try (ConfigurableApplicationContext other = new SpringApplicationBuilder(TestApplication.class)
			.web(WebApplicationType.NONE)
			.run("--spring.main.banner-mode=off", "--test.upstream.inventory=http://127.0.0.1:9",
					"--test.upstream.billing=http://127.0.0.1:9")) {
			other.getBean(TriageHttpServices.class)
				.createClient("twice", InventoryClient.class, RestClient.builder()
					.baseUrl(upstream.url())
					.requestFactory(new SimpleClientHttpRequestFactory())
					.build());
		}
		assertThat(output.getOut().split(warning, -1)).as("said once in each application").hasSize(3);
	}

	@Test
	void springsDefaultRequestFactorySendsEachAttemptOnceAndIsNotSaid(CapturedOutput output) {
		int before = upstream.requests();
		InventoryClient inventory = this.triage.createClient("on-default", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(2);
		assertThat(upstream.requests() - before).as("the connection-reset row: 2 attempts").isEqualTo(2);
		assertThat(output.getOut()).doesNotContain("Client 'on-default'");
	}

	private void assertSentTwiceAndSaid(String client, ClientHttpRequestFactory factory, CapturedOutput output,
			String warning) {
		int before = upstream.requests();
		InventoryClient inventory = this.triage.createClient(client, InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());
		this.triage.createClient(client, InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(2);
		assertThat(upstream.requests() - before).as("2 attempts, each sent twice by the JDK").isEqualTo(4);
		assertThat(output.getOut().split(warning, -1)).as("said once").hasSize(2);
		assertThat(output.getOut()).contains("new HttpComponentsClientHttpRequestFactory(AttemptAbortInterceptor"
				+ ".addTo(HttpClients.custom().disableAutomaticRetries()).build())");
	}

}
