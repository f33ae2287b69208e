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
import java.time.Duration;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * An error body longer than {@code triage.max-body-bytes} is not read past the cap on the JDK's own clients either
 * (docs/policy-table.md: "the connection is aborted instead of drained"): Spring's responses on them drain the rest
 * of the body when closed (on {@code HttpURLConnection} all of it, on the JDK {@code HttpClient} until its read
 * timeout), so a caller was held for as long as the upstream kept sending. Here the rest of the body would take 90
 * seconds to arrive.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.upstream.inventory=http://127.0.0.1:9", "test.upstream.billing=http://127.0.0.1:9",
				"triage.max-body-bytes=4KB" })
class ErrorBodyPastTheCapOnJdkClientsTests {

	private static final int CAP = 4096;

	/** What comes after the first part of the body: one byte every 100 ms. */
	private static final int TRICKLED = 900;

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@BeforeAll
	static void answerWithAnEndlessErrorBody() throws IOException {
		upstream = new RawServer();
		upstream.answer((out) -> {
			int first = CAP + 1000;
			RawServer.write(out, "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: "
					+ (first + TRICKLED) + "\r\n\r\n" + "x".repeat(first));
			RawServer.trickle(out, "y".repeat(TRICKLED), 100);
		});
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@Test
	void onHttpUrlConnectionTheRestIsNotRead() {
		assertNotReadPastTheCap("cap-simple", new SimpleClientHttpRequestFactory());
	}

	@Test
	void onTheJdkHttpClientTheRestIsNotRead() {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
		factory.setReadTimeout(Duration.ofSeconds(60));
		assertNotReadPastTheCap("cap-jdk", factory);
	}

	private void assertNotReadPastTheCap(String client, ClientHttpRequestFactory factory) {
		InventoryClient inventory = this.triage.createClient(client, InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> inventory.item("1"));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		UpstreamResponseException failure = (UpstreamResponseException) thrown;
		assertThat(failure.response().status()).isEqualTo(400);
		assertThat(failure.response().body()).hasSize(CAP);
		assertThat(failure.response().bodyTruncated()).isTrue();
		assertThat(took).as("the caller is not held while the rest of the body arrives (90 s)")
			.isLessThan(Duration.ofSeconds(20));
	}

}
