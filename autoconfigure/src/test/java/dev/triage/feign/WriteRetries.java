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

package dev.triage.feign;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.triage.UpstreamException;
import dev.triage.support.LoopbackUpstream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 000: "对于写操作接口(POST, PUT, DELETE)默认不重试除非有完善的幂等性保障". What reaches the wire for writes answered
 * 500, 502, 503 or too late; the subclasses say which methods the application declares idempotent.
 */
abstract class WriteRetries extends LoopbackUpstream {

	@BeforeEach
	void reset() {
		upstream.resetAll();
	}

	/**
	 * Return how often a request of this method reaches the wire when its row allows {@code rowAttempts}.
	 */
	abstract int expectedAttempts(String method, int rowAttempts);

	@ParameterizedTest(name = "{0} answered {1}")
	@CsvSource({ "POST, 500, 4", "POST, 502, 3", "POST, 503, 3", "POST, read-timeout, 2", "PUT, 500, 4",
			"PUT, 502, 3", "PUT, 503, 3", "PUT, read-timeout, 2", "DELETE, 500, 4", "DELETE, 502, 3",
			"DELETE, 503, 3", "DELETE, read-timeout, 2" })
	void writesReachTheWireAsTheIdempotentMethodsSay(String method, String outcome, int rowAttempts) {
		ResponseDefinitionBuilder answer = outcome.equals("read-timeout")
				? aResponse().withStatus(200).withFixedDelay(1_000)
				: aResponse().withStatus(Integer.parseInt(outcome)).withHeader("Retry-After", "0");
		upstream.stubFor(any(anyUrl()).willReturn(answer));

		Throwable thrown = catchThrowable(() -> {
			switch (method) {
				case "POST" -> this.inventory.order("{}");
				case "PUT" -> this.inventory.replace("7", "{}");
				default -> this.inventory.cancel("7");
			}
		});

		assertThat(thrown).isInstanceOf(UpstreamException.class);
		assertThat(wireCount()).isEqualTo(expectedAttempts(method, rowAttempts));
	}

}
