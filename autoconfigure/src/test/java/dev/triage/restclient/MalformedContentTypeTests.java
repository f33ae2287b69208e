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
import java.util.function.Supplier;

import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.RestClient;

/**
 * An error answer whose {@code Content-Type} does not parse: RestClient parses it before it runs any status handler
 * (Spring Framework 6.2) and threw its own {@code InvalidMediaTypeException}; the caller gets the answer's
 * {@link UpstreamResponseException}, with the header as it came, through a service interface and a RestClient
 * used directly alike.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=malformed-content-type", "test.upstream.inventory=http://127.0.0.1:9",
				"test.upstream.billing=http://127.0.0.1:9" })
class MalformedContentTypeTests {

	static RawServer upstream;

	@Autowired
	TriageHttpServices triage;

	@BeforeAll
	static void start() throws IOException {
		upstream = new RawServer();
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "application/json; charset=bogus-xyz", ";;;/", "application/json; charset=\"open" })
	void theCallerGetsTheAnswersTypedException(String contentType) {
		String body = "{\"type\":\"bad_request\"}";
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 400 Bad Request\r\nContent-Type: " + contentType
				+ "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body));
		InventoryClient service = this.triage.createClient("malformed-service", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.url()).build());
		RestClient direct = RestClient.builder()
			.baseUrl(upstream.url())
			.apply(this.triage.forClient("malformed-direct"))
			.build();

		for (Supplier<String> call : java.util.List.<Supplier<String>>of(() -> service.item("1"),
				() -> direct.get().uri("/items/1").retrieve().body(String.class))) {
			Throwable thrown = catchThrowable(call::get);

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			UpstreamResponseException failure = (UpstreamResponseException) thrown;
			assertThat(failure.response().status()).isEqualTo(400);
			assertThat(failure.response().errorType()).isEqualTo("bad_request");
			assertThat(failure.response().headers().get("content-type")).containsExactly(contentType);
			assertThat(failure.response().bodyAsString()).isEqualTo(body);
		}
	}

}
