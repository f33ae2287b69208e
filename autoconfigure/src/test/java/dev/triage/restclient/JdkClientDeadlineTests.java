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

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
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
 * The client's deadline (SPEC §3: "total time for one call across all attempts") on a {@code RestClient} on the
 * JDK's own clients, which have no hook for Triage's attempt bound: an answer whose head comes after the deadline
 * ends the call at its deadline as a {@code read-timeout} (the attempt's read timeout is what was left of the
 * deadline) reporting the deadline, where the call used to wait for the answer and succeed long after its
 * deadline.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.upstream.inventory=http://127.0.0.1:9", "test.upstream.billing=http://127.0.0.1:9",
				"triage.clients.late-simple.deadline=1s", "triage.clients.late-jdk.deadline=1s",
				"triage.clients.late-jdk-own.deadline=1s" })
class JdkClientDeadlineTests {

	/** When the slow upstream answers: well after the deadline, so that a call that waited for it is told apart. */
	private static final Duration ANSWER_AFTER = Duration.ofSeconds(8);

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@BeforeAll
	static void answerLate() throws IOException {
		upstream = new RawServer();
		upstream.answer((out) -> {
			Thread.sleep(ANSWER_AFTER.toMillis());
			RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
		});
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@Test
	void onHttpUrlConnectionTheDeadlineEndsTheCall() {
		assertEndsAtTheDeadline("late-simple", new SimpleClientHttpRequestFactory());
	}

	@Test
	void onTheJdkHttpClientTheDeadlineEndsTheCall() {
		assertEndsAtTheDeadline("late-jdk", new JdkClientHttpRequestFactory());
	}

	@Test
	void onTheApplicationsOwnJdkFactoryClassTheDeadlineEndsTheCall() {
		assertEndsAtTheDeadline("late-jdk-own", new JdkClientHttpRequestFactory() {
		});
	}

	@Test
	void aReadTimeoutSetOnTheJdkFactoryAfterTheClientWasBuiltIsFollowedAndReported() {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
		InventoryClient inventory = this.triage.createClient("jdk-set-later", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());
		factory.setReadTimeout(Duration.ofMillis(300));

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(((UpstreamTransportException) thrown).configuredTimeout()).isEqualTo(Duration.ofMillis(300));
	}

	@Test
	void withoutADeadlineTheFactorysOwnTimeoutsStayAndAreReported() {
		SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
		factory.setReadTimeout(300);
		InventoryClient inventory = this.triage.createClient("own-timeouts", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());

		Throwable thrown = catchThrowable(() -> inventory.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		assertThat(((UpstreamTransportException) thrown).failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(((UpstreamTransportException) thrown).configuredTimeout()).isEqualTo(Duration.ofMillis(300));
	}

	private void assertEndsAtTheDeadline(String client, ClientHttpRequestFactory factory) {
		InventoryClient inventory = this.triage.createClient(client, InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).requestFactory(factory).build());

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> inventory.item("1"));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.READ_TIMEOUT);
		assertThat(failure.configuredTimeout()).as("the deadline, which the attempt's read timeout ran out with")
			.isEqualTo(Duration.ofSeconds(1));
		assertThat(failure.getCause()).as("says the deadline ended it, not the JDK's own words")
			.hasMessage("the call's deadline of 1000ms passed while the answer was awaited");
		assertThat(took).as("ended at its deadline, not when the answer came").isLessThan(ANSWER_AFTER.minusSeconds(1));
	}

}
