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
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamResponseException;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/**
 * The application closes while callers wait between attempts (a 503 asked for 20 s): they end at once with what
 * really happened, the 503, and make no further attempt on HTTP clients being shut down; the call log says why
 * ({@code retry_suppressed=shutdown}). Before, they slept on, then
 * sent again (HTTP service clients) or got Apache HttpClient 5's "Connection pool shut down" (Feign).
 */
@ExtendWith(OutputCaptureExtension.class)
class ClosingTests {

	/** Far below the 20 s the upstream asked for; far above a close on a loaded machine. */
	private static final Duration PROMPTLY = Duration.ofSeconds(10);

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	@Test
	void aFeignCallerWaitingBetweenAttemptsEndsWithItsLastAnswerWhenTheApplicationCloses(CapturedOutput output)
			throws Exception {
		assertEndsPromptly((context) -> context.getBean(InventoryClient.class), output);
	}

	@Test
	void anHttpServiceClientCallerWaitingBetweenAttemptsEndsWithItsLastAnswerWhenTheApplicationCloses(
			CapturedOutput output) throws Exception {
		assertEndsPromptly((context) -> context.getBean(TriageHttpServices.class)
			.createClient("closing", InventoryClient.class, RestClient.builder().baseUrl(upstream.baseUrl()).build()),
				output);
	}

	private static void assertEndsPromptly(Function<ConfigurableApplicationContext, InventoryClient> client,
			CapturedOutput output) throws Exception {
		upstream.resetAll();
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "20")));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class)
			.web(WebApplicationType.NONE)
			.run("--test.upstream.inventory=" + upstream.baseUrl(), "--test.upstream.billing=" + upstream.baseUrl(),
					"--triage.fleet.store=local");
		InventoryClient inventory = client.apply(context);
		CompletableFuture<Throwable> caller = CompletableFuture.supplyAsync(() -> {
			try {
				inventory.item("1");
				return null;
			}
			catch (Throwable ex) {
				return ex;
			}
		});
		long deadline = System.nanoTime() + PROMPTLY.toNanos();
		while (wireCount() < 1) {
			assertThat(System.nanoTime()).as("the first attempt was sent").isLessThan(deadline);
			Thread.sleep(10);
		}
		Thread.sleep(200); // the caller is now waiting out the Retry-After

		long closing = System.nanoTime();
		context.close();
		Throwable ended = caller.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);

		assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(PROMPTLY);
		assertThat(ended).isInstanceOf(UpstreamResponseException.class);
		assertThat(((UpstreamResponseException) ended).response().status()).isEqualTo(503);
		Thread.sleep(200);
		assertThat(wireCount()).as("no further attempt").isEqualTo(1);
		assertThat(output.getAll().lines().filter((line) -> line.contains("code=503")))
			.as("the call's log line says why its retry was not made")
			.anySatisfy((line) -> assertThat(line).contains("retry_suppressed=shutdown"));
	}

	private static long wireCount() {
		return upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
	}

}
