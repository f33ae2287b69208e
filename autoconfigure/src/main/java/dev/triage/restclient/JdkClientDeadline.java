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

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;

import dev.triage.engine.Call;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.PrivateFields;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.util.ReflectionUtils;

/**
 * The client's deadline on the JDK's own clients (SPEC §3: "total time for one call across all attempts"): they
 * have no hook for Triage's attempt bound, so each attempt's timeouts are lowered to what is left of the call's
 * deadline, as for a Feign client on them. On {@code HttpURLConnection} ({@link SimpleClientHttpRequestFactory}) the
 * request's connect and read timeouts; on {@code java.net.http.HttpClient} ({@link JdkClientHttpRequestFactory}) the
 * request's timeout (until its answer's head arrives; the client's connect timeout is its own). The timeouts an
 * attempt ran with are those a transport failure reports ({@code configuredTimeout()}).
 */
final class JdkClientDeadline implements ClientHttpRequestFactory {

	private static final Log logger = LogFactory.getLog(JdkClientDeadline.class);

	/** Spring Framework 7's {@code enableCompression(boolean)}, {@code null} on 6.2. */
	private static final Method COMPRESSION = ReflectionUtils.findMethod(JdkClientHttpRequestFactory.class,
			"enableCompression", boolean.class);

	/** The connection of a {@code SimpleClientHttpRequest} (looked up once per request class; {@code null}: none). */
	private static final ClassValue<Field> CONNECTION = new ClassValue<>() {
		@Override
		protected Field computeValue(Class<?> type) {
			try {
				return PrivateFields.field(type, "connection");
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				logger.debug("Cannot read the HttpURLConnection of " + type.getName(), ex);
				return null;
			}
		}
	};

	private final ClientHttpRequestFactory delegate;

	private final ManagedClient client;

	/** What the JDK HttpClient factory holds, read when it is wrapped; {@code null} on the simple factory. */
	private final JdkParts jdk;

	private JdkClientDeadline(ClientHttpRequestFactory delegate, ManagedClient client, JdkParts jdk) {
		this.delegate = delegate;
		this.client = client;
		this.jdk = jdk;
	}

	/**
	 * Put a JDK client's request factory under the client's deadline; any other factory is returned as it is.
	 * @param factory the builder's request factory
	 * @param client the client
	 * @return the factory to use
	 */
	static ClientHttpRequestFactory of(ClientHttpRequestFactory factory, ManagedClient client) {
		ClientHttpRequestFactory own = unwrap(factory);
		if (own instanceof SimpleClientHttpRequestFactory) {
			return new JdkClientDeadline(own, client, null);
		}
		if (own instanceof JdkClientHttpRequestFactory jdkFactory) {
			JdkParts parts = JdkParts.of(jdkFactory);
			return (parts != null) ? new JdkClientDeadline(own, client, parts) : factory;
		}
		return factory;
	}

	/**
	 * Return the application's own factory beneath this one.
	 * @param factory a builder's factory
	 * @return the factory it wraps, or itself
	 */
	static ClientHttpRequestFactory unwrap(ClientHttpRequestFactory factory) {
		return (factory instanceof JdkClientDeadline deadline) ? deadline.delegate : factory;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		Call call = Call.current(this.client);
		if (call == null) {
			return this.delegate.createRequest(uri, httpMethod);
		}
		Engine engine = call.engine();
		if (this.jdk != null) {
			return this.jdk.request((JdkClientHttpRequestFactory) this.delegate, engine, call, uri, httpMethod);
		}
		ClientHttpRequest request = this.delegate.createRequest(uri, httpMethod);
		Field field = CONNECTION.get(request.getClass());
		HttpURLConnection connection;
		try {
			connection = (field != null) ? (HttpURLConnection) field.get(request) : null;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Cannot read the HttpURLConnection of " + request.getClass().getName(), ex);
			connection = null;
		}
		if (connection == null) {
			return request;
		}
		int connect = within(engine, call, connection.getConnectTimeout());
		int read = within(engine, call, connection.getReadTimeout());
		connection.setConnectTimeout(connect);
		connection.setReadTimeout(read);
		call.clientTimeouts(shown(connect), shown(read));
		return request;
	}

	/**
	 * A {@link JdkClientHttpRequestFactory}'s {@code HttpClient}, executor and compression, read once when it is
	 * wrapped; its read timeout is read per attempt through a field looked up once (a later {@code setReadTimeout}
	 * is followed).
	 */
	private record JdkParts(HttpClient httpClient, Executor executor, Object compression, Field readTimeout) {

		static JdkParts of(JdkClientHttpRequestFactory factory) {
			try {
				Class<?> type = JdkClientHttpRequestFactory.class;
				Object compression = (COMPRESSION != null) ? PrivateFields.field(type, "compression").get(factory)
						: null;
				return new JdkParts((HttpClient) PrivateFields.field(type, "httpClient").get(factory),
						(Executor) PrivateFields.field(type, "executor").get(factory), compression,
						PrivateFields.field(type, "readTimeout"));
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				logger.debug("Cannot read the HttpClient of " + factory.getClass().getName(), ex);
				return null;
			}
		}

		ClientHttpRequest request(JdkClientHttpRequestFactory factory, Engine engine, Call call, URI uri,
				HttpMethod httpMethod) throws IOException {
			Duration configured;
			try {
				configured = (Duration) this.readTimeout.get(factory);
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				logger.debug("Cannot read the read timeout of " + factory.getClass().getName(), ex);
				return factory.createRequest(uri, httpMethod);
			}
			int read = within(engine, call,
					(configured != null) ? (int) Math.min(Integer.MAX_VALUE, configured.toMillis()) : 0);
			call.clientTimeouts(this.httpClient.connectTimeout().orElse(null), shown(read));
			if (read == 0 || (configured != null && read == configured.toMillis())) {
				return factory.createRequest(uri, httpMethod);
			}
			// The request's timeout is the factory's: a factory on the same HttpClient (its connections, its
			// executor) with what is left of the deadline (and, on Spring Framework 7, the same compression).
			JdkClientHttpRequestFactory shorter = new JdkClientHttpRequestFactory(this.httpClient, this.executor);
			shorter.setReadTimeout(Duration.ofMillis(read));
			if (COMPRESSION != null && this.compression != null) {
				try {
					COMPRESSION.invoke(shorter, this.compression);
				}
				catch (ReflectiveOperationException | RuntimeException ex) {
					logger.debug("Cannot copy the compression of " + factory, ex);
				}
			}
			return shorter.createRequest(uri, httpMethod);
		}

	}

	/**
	 * A timeout in milliseconds (0: none) lowered to what is left of the call's deadline (at least 1 ms).
	 */
	private static int within(Engine engine, Call call, int millis) {
		long lowered = engine.readTimeoutWithinDeadline(call, (millis > 0) ? millis : Long.MAX_VALUE);
		return (int) Math.min(Integer.MAX_VALUE, lowered == Long.MAX_VALUE ? 0 : lowered);
	}

	private static Duration shown(int millis) {
		return (millis > 0) ? Duration.ofMillis(millis) : null;
	}

}
