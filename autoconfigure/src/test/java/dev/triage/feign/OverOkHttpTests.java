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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import dev.triage.TransportFailure;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import feign.Client;
import feign.okhttp.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Feign's OkHttp client sends a request again by itself when its pooled connection fails (OkHttp's
 * {@code retryOnConnectionFailure}, on by default): a POST that the server read before it closed the connection
 * reached it twice, behind the table (SPEC §5). Triage switches that off for its clients: the application's own
 * {@code feign.okhttp.OkHttpClient} bean, and Spring Cloud OpenFeign's (Spring Boot 3.5's line only: Spring Cloud
 * OpenFeign 5 dropped OkHttp).
 */
class OverOkHttpTests {

	private ServerSocket server;

	private final AtomicInteger requests = new AtomicInteger();

	/** Whether the upstream answers 200 (keeping the connection) or reads the request and closes. */
	private volatile boolean answering = true;

	@BeforeEach
	void keepAliveServer() throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(() -> {
			while (!this.server.isClosed()) {
				try {
					Socket connection = this.server.accept();
					Thread serving = new Thread(() -> serve(connection));
					serving.setDaemon(true);
					serving.start();
				}
				catch (IOException ex) {
					return;
				}
			}
		});
		acceptor.setDaemon(true);
		acceptor.start();
	}

	@AfterEach
	void close() throws IOException {
		this.server.close();
	}

	@Test
	void theApplicationsOwnOkHttpClientSendsAPostOnceWhenItsPooledConnectionFails() {
		try (ConfigurableApplicationContext context = start(OwnOkHttp.class)) {
			assertSentAsTheTableSays(context);
		}
	}

	@Test
	void springCloudOpenFeignsOkHttpClientSendsAPostOnceWhenItsPooledConnectionFails() {
		assumeTrue(ClassUtils.isPresent(
				"org.springframework.cloud.openfeign.FeignAutoConfiguration$OkHttpFeignConfiguration", null),
				"Spring Cloud OpenFeign without OkHttp support (5.x, Spring Boot 4)");
		try (ConfigurableApplicationContext context = start(Object.class,
				"--spring.cloud.openfeign.httpclient.hc5.enabled=false", "--spring.cloud.openfeign.okhttp.enabled=true")) {
			assertThat(context.getBean(Client.class)).isInstanceOf(OkHttpClient.class);
			assertSentAsTheTableSays(context);
		}
	}

	private void assertSentAsTheTableSays(ConfigurableApplicationContext context) {
		InventoryClient inventory = context.getBean(InventoryClient.class);
		assertThat(inventory.item("warm")).isEqualTo("ok");
		this.answering = false;
		this.requests.set(0);

		Throwable post = catchThrowable(() -> inventory.order("{}"));

		assertThat(((UpstreamTransportException) post).failure()).isEqualTo(TransportFailure.CONNECTION_RESET);
		assertThat(this.requests.get()).as("a POST that may have executed: once").isEqualTo(1);

		this.answering = true;
		assertThat(inventory.item("warm")).isEqualTo("ok");
		this.answering = false;
		this.requests.set(0);
		Throwable get = catchThrowable(() -> inventory.item("1"));

		assertThat(((UpstreamTransportException) get).attempts()).isEqualTo(2);
		assertThat(this.requests.get()).as("the connection-reset row: 2 attempts").isEqualTo(2);
	}

	private ConfigurableApplicationContext start(Class<?> configuration, String... more) {
		String url = "http://127.0.0.1:" + this.server.getLocalPort();
		String[] args = { "--test.upstream.inventory=" + url, "--test.upstream.billing=" + url,
				"--triage.policies.connection-reset.backoff.initial=1ms" };
		String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
		System.arraycopy(more, 0, all, args.length, more.length);
		return new SpringApplicationBuilder(TestApplication.class, configuration).web(WebApplicationType.NONE)
			.run(all);
	}

	/** Answers 200 on a kept-alive connection, or reads the request and closes it without an answer. */
	private void serve(Socket connection) {
		try (connection) {
			InputStream in = connection.getInputStream();
			while (readHead(in)) {
				this.requests.incrementAndGet();
				if (!this.answering) {
					return;
				}
				connection.getOutputStream()
					.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
				connection.getOutputStream().flush();
			}
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	/** Read a request's head and, if it has one, its body of Content-Length bytes. */
	private static boolean readHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		int b;
		while (!head.toString().endsWith("\r\n\r\n")) {
			if ((b = in.read()) == -1) {
				return false;
			}
			head.append((char) b);
		}
		for (String line : head.toString().split("\r\n")) {
			if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
				in.readNBytes(Integer.parseInt(line.substring(15).trim()));
			}
		}
		return true;
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnOkHttp {

		@Bean
		Client applicationsFeignClient() {
			return new OkHttpClient();
		}

	}

}
