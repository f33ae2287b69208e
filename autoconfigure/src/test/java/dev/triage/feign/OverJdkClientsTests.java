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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import feign.Client;
import feign.hc5.ApacheHttp5Client;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Cloud OpenFeign sends with the JDK's {@code HttpURLConnection} ({@code feign.Client.Default}) when its
 * Apache HttpClient 5 client is off: by its property, or because the application declares a
 * {@code CloseableHttpClient} bean of its own; and with the JDK's {@code HttpClient} when told to
 * ({@code spring.cloud.openfeign.http2client.enabled}). Both send a GET again, once, when its answer fails to arrive,
 * which nothing switches off (SPEC §5: the wire sees twice what the table says); Triage says so once per client,
 * naming the way back to exact counts.
 */
@ExtendWith(OutputCaptureExtension.class)
class OverJdkClientsTests {

	private static final String WARNING = "Client 'inventory': Feign sends with the JDK's HttpURLConnection";

	@Test
	void aClientOnHttpUrlConnectionIsSaidOnceWithWhatItResendsAndTheWayBack(CapturedOutput output) throws Exception {
		try (RawServer upstream = new RawServer();
				ConfigurableApplicationContext context = start(upstream, Object.class,
						"--spring.cloud.openfeign.httpclient.hc5.enabled=false")) {
			upstream.answer((out) -> {
				// read the request, then close without answering
			});
			InventoryClient inventory = context.getBean(InventoryClient.class);
			Throwable first = catchThrowable(() -> inventory.item("1"));
			catchThrowable(() -> inventory.item("2"));

			assertThat(first).isInstanceOf(UpstreamTransportException.class);
			assertThat(((UpstreamTransportException) first).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
			assertThat(((UpstreamTransportException) first).attempts()).isEqualTo(2);
			assertThat(upstream.requests()).as("HttpURLConnection sends each attempt twice").isEqualTo(8);
			assertThat(output.getOut().split(WARNING, -1)).as("said once").hasSize(2);
			assertThat(output.getOut()).contains("spring.cloud.openfeign.httpclient.hc5.enabled=false")
				.contains("new ApacheHttp5Client(AttemptAbortInterceptor.addTo(HttpClients.custom()"
						+ ".disableAutomaticRetries()).build())");
		}
	}

	@Test
	void aCloseableHttpClientBeanOfTheApplicationsOwnPutsFeignOnHttpUrlConnectionAndIsSaid(CapturedOutput output)
			throws Exception {
		try (RawServer upstream = new RawServer();
				ConfigurableApplicationContext context = start(upstream, OwnCloseableHttpClient.class)) {
			context.getBean(InventoryClient.class).item("1");

			assertThat(output.getOut()).contains(WARNING);
		}
	}

	@Test
	void aClientOnTheJdkHttpClientIsSaidOnce(CapturedOutput output) throws Exception {
		try (RawServer upstream = new RawServer();
				ConfigurableApplicationContext context = start(upstream, Object.class,
						"--spring.cloud.openfeign.httpclient.hc5.enabled=false",
						"--spring.cloud.openfeign.http2client.enabled=true")) {
			upstream.answer((out) -> {
			});
			InventoryClient inventory = context.getBean(InventoryClient.class);
			Throwable thrown = catchThrowable(() -> inventory.item("1"));
			catchThrowable(() -> inventory.item("2"));

			assertThat(context.getBean(Client.class).getClass().getName()).isEqualTo("feign.http2client.Http2Client");
			assertThat(((UpstreamTransportException) thrown).attempts()).isEqualTo(2);
			assertThat(upstream.requests()).as("the JDK's HttpClient sends each attempt twice").isEqualTo(8);
			String warning = "Client 'inventory': Feign sends with the JDK's HttpClient";
			assertThat(output.getOut().split(warning, -1)).as("said once").hasSize(2);
			assertThat(output.getOut()).contains("spring.cloud.openfeign.http2client.enabled=true puts Feign on it");
		}
	}

	@Test
	void aClientOnApacheHttpClient5IsNotSaidToBeOnHttpUrlConnection(CapturedOutput output) throws Exception {
		try (RawServer upstream = new RawServer();
				ConfigurableApplicationContext context = start(upstream, Object.class)) {
			upstream.answer((out) -> {
			});
			catchThrowable(() -> context.getBean(InventoryClient.class).item("1"));

			assertThat(context.getBean(Client.class)).isInstanceOf(ApacheHttp5Client.class);
			assertThat(upstream.requests()).as("the connection-reset row: 2 attempts").isEqualTo(2);
			assertThat(output.getOut()).doesNotContain("Feign sends with the JDK's");
		}
	}

	private static ConfigurableApplicationContext start(RawServer upstream, Class<?> configuration, String... more) {
		String[] args = { "--test.upstream.inventory=" + upstream.url(), "--test.upstream.billing=" + upstream.url(),
				"--triage.policies.connection-reset.backoff.initial=1ms" };
		String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
		System.arraycopy(more, 0, all, args.length, more.length);
		return new SpringApplicationBuilder(TestApplication.class, configuration).web(WebApplicationType.NONE)
			.run(all);
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnCloseableHttpClient {

		@Bean(destroyMethod = "close")
		CloseableHttpClient applicationsHttpClient() {
			return HttpClients.custom().disableAutomaticRetries().build();
		}

	}

}
