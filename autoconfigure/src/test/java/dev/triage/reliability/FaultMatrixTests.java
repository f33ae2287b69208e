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

package dev.triage.reliability;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.function.Supplier;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Every transport fault a loopback server can produce × GET, POST and POST with an Idempotency-Key: what reached
 * the wire, what the caller got, which {@link TransportFailure}, and how many failures the breaker recorded.
 * Later changes cannot quietly move any cell.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class FaultMatrixTests extends LoopbackUpstream {

	@Autowired
	CircuitBreakerRegistry breakers;

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	@ParameterizedTest(name = "{0} on {1}: {3} attempt(s), {2}")
	@CsvSource({ "SLOW_ANSWER, GET, READ_TIMEOUT, 2", "SLOW_ANSWER, POST, READ_TIMEOUT, 1",
			"SLOW_ANSWER, POST_KEY, READ_TIMEOUT, 2", "CONNECTION_RESET_BY_PEER, GET, CONNECTION_RESET, 2",
			"CONNECTION_RESET_BY_PEER, POST, CONNECTION_RESET, 1", "CONNECTION_RESET_BY_PEER, POST_KEY, CONNECTION_RESET, 2",
			"EMPTY_RESPONSE, GET, CONNECTION_RESET, 2", "EMPTY_RESPONSE, POST, CONNECTION_RESET, 1",
			"EMPTY_RESPONSE, POST_KEY, CONNECTION_RESET, 2", "MALFORMED_RESPONSE_CHUNK, GET, CONNECTION_RESET, 2",
			"MALFORMED_RESPONSE_CHUNK, POST, CONNECTION_RESET, 1",
			"MALFORMED_RESPONSE_CHUNK, POST_KEY, CONNECTION_RESET, 2", "RANDOM_DATA_THEN_CLOSE, GET, CONNECTION_RESET, 2",
			"RANDOM_DATA_THEN_CLOSE, POST, CONNECTION_RESET, 1",
			"RANDOM_DATA_THEN_CLOSE, POST_KEY, CONNECTION_RESET, 2" })
	void everyFaultIsTypedCountedAndRetriedAsItsRowSays(String fault, String request, TransportFailure expected,
			int attempts) throws InterruptedException {
		ResponseDefinitionBuilder answer = fault.equals("SLOW_ANSWER")
				? aResponse().withStatus(200).withBody("late").withFixedDelay(1_000)
				: aResponse().withFault(Fault.valueOf(fault));
		upstream.stubFor(any(anyUrl()).willReturn(answer));
		Supplier<String> call = switch (request) {
			case "GET" -> () -> this.inventory.item("1");
			case "POST" -> () -> this.inventory.order("{}");
			default -> () -> this.inventory.order("{}", "key-1");
		};
		int failedBefore = this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls();

		Throwable thrown = catchThrowable(call::get);

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).as(String.valueOf(failure.getCause())).isEqualTo(expected);
		assertThat(failure.attempts()).isEqualTo(attempts);
		assertThat(settledWireCount(attempts)).isEqualTo(attempts);
		assertThat(this.breakers.circuitBreaker("inventory").getMetrics().getNumberOfFailedCalls() - failedBefore)
			.as("every attempt is a breaker failure")
			.isEqualTo(attempts);
	}

	/**
	 * Return the requests the upstream logged, once the expected number arrived or 5s passed: WireMock logs a
	 * request whose answer it delays (SLOW_ANSWER) when it has written the answer, after the client gave up.
	 */
	private static long settledWireCount(int expected) throws InterruptedException {
		long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
		while (wireCount() < expected && System.nanoTime() < until) {
			Thread.sleep(20);
		}
		return wireCount();
	}

}
