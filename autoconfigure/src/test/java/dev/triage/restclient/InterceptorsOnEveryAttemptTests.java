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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;

/**
 * The application's own RestClient interceptors next to Triage's: whatever they add to a request is added to
 * each attempt once (on Spring Framework 7 they run on every attempt: a header added with {@code add} used to
 * pile up, {@code gzip, gzip, gzip}), and an {@code Idempotency-Key} one of them puts on a write makes it
 * retryable as a key the caller set does (SPEC §3, as on Feign).
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.context=interceptors-on-every-attempt",
				"triage.policies.503.backoff.initial=1ms", "triage.policies.503.backoff.max=2ms",
				"triage.policies.503.pause=false" })
class InterceptorsOnEveryAttemptTests extends LoopbackUpstream {

	@Autowired
	TriageHttpServices triage;

	@BeforeEach
	void reset() {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));
	}

	@Test
	void aHeaderAnInterceptorAddsIsOnEachAttemptOnce() {
		AtomicInteger counter = new AtomicInteger();
		ClientHttpRequestInterceptor adding = (request, body, execution) -> {
			request.getHeaders().add("X-Added", "n" + counter.incrementAndGet());
			request.getHeaders().add("Content-Encoding", "gzip");
			return execution.execute(request, body);
		};
		InventoryClient client = this.triage.createClient("added", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).requestInterceptor(adding).build());

		Throwable thrown = catchThrowable(() -> client.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		List<LoggedRequest> sent = upstream.findAll(anyRequestedFor(anyUrl()));
		assertThat(sent).as("the 503 row: 3 attempts").hasSize(3);
		for (LoggedRequest request : sent) {
			assertThat(request.getHeaders().getHeader("Content-Encoding").values()).containsExactly("gzip");
			assertThat(request.getHeaders().getHeader("X-Added").values()).hasSize(1);
		}
	}

	@Test
	void whatAnInterceptorAddedAfterTriagesSetsGoesWithEveryAttempt() {
		ClientHttpRequestInterceptor after = (request, body, execution) -> {
			request.getHeaders().set("X-After", "1");
			if (request.getHeaders().getFirst("Idempotency-Key") == null) {
				request.getHeaders().set("Idempotency-Key", "ik-after");
			}
			return execution.execute(request, body);
		};
		RestClient client = RestClient.builder()
			.baseUrl(upstream.baseUrl())
			.apply(this.triage.forClient("after"))
			.requestInterceptor(after)
			.build();

		Throwable thrown = catchThrowable(() -> client.post().uri("/orders").body("{}").retrieve().body(String.class));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		List<LoggedRequest> sent = upstream.findAll(anyRequestedFor(anyUrl()));
		assertThat(sent).as("a POST with a key: the 503 row's 3 attempts").hasSize(3);
		assertThat(sent).as("Spring Framework 6.2 runs that interceptor on the first attempt only: what it set stays")
			.allSatisfy((request) -> {
				assertThat(request.getHeader("Idempotency-Key")).isEqualTo("ik-after");
				assertThat(request.getHeaders().getHeader("X-After").values()).containsExactly("1");
			});
	}

	@Test
	void anIdempotencyKeyAnInterceptorPutsOnAWriteMakesItRetryable() {
		ClientHttpRequestInterceptor keying = (request, body, execution) -> {
			if (request.getHeaders().getFirst("Idempotency-Key") == null) {
				request.getHeaders().set("Idempotency-Key", "ik-42");
			}
			return execution.execute(request, body);
		};
		InventoryClient client = this.triage.createClient("keyed", InventoryClient.class,
				RestClient.builder().baseUrl(upstream.baseUrl()).requestInterceptor(keying).build());

		Throwable thrown = catchThrowable(() -> client.order("{}"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		List<LoggedRequest> sent = upstream.findAll(anyRequestedFor(anyUrl()));
		assertThat(sent).as("a POST with a key: the 503 row's 3 attempts").hasSize(3);
		assertThat(sent).allSatisfy((request) -> assertThat(request.getHeader("Idempotency-Key")).isEqualTo("ik-42"));
		assertThat(((UpstreamResponseException) thrown).attempts()).isEqualTo(3);
	}

}
