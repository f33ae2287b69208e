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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.triage.engine.HttpClient5Retries;
import dev.triage.engine.JdkClientResends;
import dev.triage.engine.PrivateFields;
import feign.Client;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The HTTP client under one Feign client, checked for requests it would send again by itself behind the policy
 * table (SPEC §5) before Triage wraps it: an Apache HttpClient 5 that retries is refused, Feign's OkHttp client is
 * rebuilt without OkHttp's resends, and the JDK's clients, whose resends cannot be switched off, are warned about.
 */
final class UnderlyingClient {

	private static final Log logger = LogFactory.getLog(UnderlyingClient.class);

	private static final String HC5_FEIGN_CLIENT = "feign.hc5.ApacheHttp5Client";

	private static final String JDK_HTTP_CLIENT_FEIGN_CLIENT = "feign.http2client.Http2Client";

	private static final String OKHTTP_FEIGN_CLIENT = "feign.okhttp.OkHttpClient";

	private final String name;

	/** Whether this client was said to send with one of the JDK's clients: once per client. */
	private final AtomicBoolean saidJdkClient = new AtomicBoolean();

	/** The warnings about its Apache HttpClient 5 already said: once per client. */
	private final Set<String> said = ConcurrentHashMap.newKeySet();

	/**
	 * Checks for one managed client.
	 * @param name the managed client's name
	 */
	UnderlyingClient(String name) {
		this.name = name;
	}

	/**
	 * Check a Feign client's HTTP client: refused, warned about or rebuilt as above.
	 * @param client the Feign client
	 * @return the client to wrap
	 */
	Client checked(Client client) {
		refuseHiddenRetries(client);
		warnOnJdkClient(client);
		return withoutOkHttpRetries(client);
	}

	/**
	 * Feign's OkHttp client ({@code feign.okhttp.OkHttpClient}: Spring Cloud OpenFeign's with
	 * {@code spring.cloud.openfeign.okhttp.enabled}, or the application's own) on an OkHttp client that sends a
	 * request again by itself after its connection failed ({@code retryOnConnectionFailure}, OkHttp's default): a
	 * request read by a server that then closed a pooled connection, a POST included, reached it twice. Rebuilt on
	 * the same OkHttp client (its pool, dispatcher and settings) without that, said at INFO. Read by reflection:
	 * OkHttp is not a dependency of Triage's.
	 */
	private Client withoutOkHttpRetries(Client client) {
		if (!client.getClass().getName().equals(OKHTTP_FEIGN_CLIENT)) {
			return client;
		}
		try {
			Object okHttp = PrivateFields.read(client, "delegate");
			Class<?> okHttpType = okHttp.getClass();
			if (!Boolean.TRUE.equals(okHttpType.getMethod("retryOnConnectionFailure").invoke(okHttp))) {
				return client;
			}
			Object builder = okHttpType.getMethod("newBuilder").invoke(okHttp);
			builder.getClass().getMethod("retryOnConnectionFailure", boolean.class).invoke(builder, false);
			Object rebuilt = builder.getClass().getMethod("build").invoke(builder);
			Client without = (Client) client.getClass().getConstructor(okHttpType).newInstance(rebuilt);
			logger.info("Client '" + this.name + "': Feign's OkHttp client sends without OkHttp's "
					+ "retryOnConnectionFailure, which sent a request again after its connection failed (a POST "
					+ "included) behind Triage's policy table");
			return without;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.warn("Client '" + this.name + "': Triage cannot switch off OkHttp's "
					+ "retryOnConnectionFailure for Feign's OkHttp client (" + ex + "): a request whose pooled "
					+ "connection fails can be sent again behind the policy table, a POST included. To fix: give "
					+ "feign.okhttp.OkHttpClient an OkHttp client built with retryOnConnectionFailure(false)");
			return client;
		}
	}

	/**
	 * Say once that a Feign client sends with one of the JDK's HTTP clients, which send some requests again by
	 * themselves, with no way to stop them ({@link JdkClientResends}): {@code HttpURLConnection}
	 * ({@code feign.Client.Default}), which Spring Cloud OpenFeign uses when its Apache HttpClient 5 client is off
	 * by {@code spring.cloud.openfeign.httpclient.hc5.enabled=false} or skipped because the application declares
	 * a {@code CloseableHttpClient} bean of its own; or {@code java.net.http.HttpClient}
	 * ({@code feign.http2client.Http2Client}, {@code spring.cloud.openfeign.http2client.enabled=true}).
	 */
	private void warnOnJdkClient(Client client) {
		String what;
		String why;
		if (client instanceof Client.Default) {
			what = JdkClientResends.HTTP_URL_CONNECTION + " (feign.Client.Default)";
			why = "Spring Cloud OpenFeign's Apache HttpClient 5 client is off: "
					+ "spring.cloud.openfeign.httpclient.hc5.enabled=false, or a CloseableHttpClient bean of the "
					+ "application's own, which makes Spring Cloud OpenFeign skip it. To send what the table says, "
					+ "remove either";
		}
		else if (client.getClass().getName().equals(JDK_HTTP_CLIENT_FEIGN_CLIENT)) {
			what = JdkClientResends.HTTP_CLIENT + " (feign.http2client.Http2Client)";
			why = "spring.cloud.openfeign.http2client.enabled=true puts Feign on it. To send what the table says, "
					+ "remove that setting";
		}
		else {
			return;
		}
		if (this.saidJdkClient.compareAndSet(false, true)) {
			logger.warn("Client '" + this.name + "': Feign sends with " + what + JdkClientResends.CONSEQUENCE
					+ ". " + why + ", or declare a feign.Client bean new ApacheHttp5Client("
					+ JdkClientResends.BOUND_HTTP_CLIENT_5 + ")");
		}
	}

	/**
	 * Refuse a Feign client on an Apache HttpClient 5 that retries on its own: the application's own
	 * {@code feign.Client} bean, e.g. {@code new ApacheHttp5Client()}, which replaces the one Spring Cloud OpenFeign
	 * builds with Triage's settings.
	 */
	private void refuseHiddenRetries(Client client) {
		if (!client.getClass().getName().equals(HC5_FEIGN_CLIENT)) {
			return;
		}
		Object httpClient;
		try {
			httpClient = PrivateFields.read(client, "client");
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return;
		}
		HttpClient5Retries.check(this.name, httpClient, "its Feign client", "build the HttpClient of the "
				+ "application's feign.Client bean as AttemptAbortInterceptor.addTo(HttpClients.custom()"
				+ ".disableAutomaticRetries()) (dev.triage.engine: the attempt's hard bound, the timeout that fired), "
				+ "or leave the client to Spring Cloud OpenFeign, which Triage configures", this.said::add);
	}

}
