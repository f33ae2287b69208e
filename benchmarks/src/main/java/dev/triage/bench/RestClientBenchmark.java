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

package dev.triage.bench;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.triage.UpstreamException;
import dev.triage.engine.ManagedClients;
import dev.triage.restclient.ManagedHttpServices;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.AbstractClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * Whole calls in memory through an {@code @HttpExchange} interface on a {@code RestClient} whose request factory
 * answers from memory: plain, and managed by Triage ({@code TriageHttpServices.createClient}, the engine's
 * runtime as {@link Fixtures#runtime} builds it). A 200 (String body) and a 404 with a JSON error body.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RestClientBenchmark {

	/**
	 * The service interface.
	 */
	public interface Api {

		@GetExchange("/items/42")
		String item();

	}

	private Api plain200;

	private Api triage200;

	private Api plain404;

	private Api triage404;

	@Setup
	public void setUp() {
		byte[] ok = "\"ok\"".getBytes();
		this.plain200 = plain(answering(200, ok));
		this.triage200 = triage(answering(200, ok));
		this.plain404 = plain(answering(404, Fixtures.JSON_404));
		this.triage404 = triage(answering(404, Fixtures.JSON_404));
	}

	@Benchmark
	public String ok200PlainRestClient() {
		return this.plain200.item();
	}

	@Benchmark
	public String ok200TriageRestClient() {
		return this.triage200.item();
	}

	@Benchmark
	public Object notFound404PlainRestClient() {
		try {
			return this.plain404.item();
		}
		catch (RestClientResponseException ex) {
			return ex;
		}
	}

	@Benchmark
	public Object notFound404TriageRestClient() {
		try {
			return this.triage404.item();
		}
		catch (UpstreamException ex) {
			return ex;
		}
	}

	private static Api plain(ClientHttpRequestFactory factory) {
		RestClient client = RestClient.builder().baseUrl("http://in.memory").requestFactory(factory).build();
		return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client)).build().createClient(Api.class);
	}

	private static Api triage(ClientHttpRequestFactory factory) {
		ManagedClients clients = new ManagedClients(Map.of(), (name) -> Fixtures.runtime(Fixtures.neverOpening()));
		ManagedHttpServices services = new ManagedHttpServices(clients, (name) -> true, (type) -> null);
		RestClient client = RestClient.builder().baseUrl("http://in.memory").requestFactory(factory).build();
		return services.createClient("bench", Api.class, client);
	}

	/**
	 * A request factory whose every request is answered from memory with a status, a JSON content type and a body.
	 */
	static ClientHttpRequestFactory answering(int status, byte[] body) {
		return (uri, method) -> new InMemoryRequest(uri, method, status, body);
	}

	private static final class InMemoryRequest extends AbstractClientHttpRequest {

		private final URI uri;

		private final HttpMethod method;

		private final int status;

		private final byte[] body;

		InMemoryRequest(URI uri, HttpMethod method, int status, byte[] body) {
			this.uri = uri;
			this.method = method;
			this.status = status;
			this.body = body;
		}

		@Override
		public HttpMethod getMethod() {
			return this.method;
		}

		@Override
		public URI getURI() {
			return this.uri;
		}

		@Override
		protected OutputStream getBodyInternal(HttpHeaders headers) {
			return OutputStream.nullOutputStream();
		}

		@Override
		protected ClientHttpResponse executeInternal(HttpHeaders headers) {
			HttpHeaders responseHeaders = new HttpHeaders();
			responseHeaders.setContentType(MediaType.APPLICATION_JSON);
			responseHeaders.setContentLength(this.body.length);
			InputStream in = new ByteArrayInputStream(this.body);
			int code = this.status;
			return new ClientHttpResponse() {

				@Override
				public HttpStatusCode getStatusCode() {
					return HttpStatusCode.valueOf(code);
				}

				@Override
				public String getStatusText() {
					return "bench";
				}

				@Override
				public HttpHeaders getHeaders() {
					return responseHeaders;
				}

				@Override
				public InputStream getBody() {
					return in;
				}

				@Override
				public void close() {
				}

			};
		}

	}

}
