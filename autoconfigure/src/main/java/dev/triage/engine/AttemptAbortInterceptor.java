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

package dev.triage.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.classic.ExecRuntime;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.function.Resolver;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5's part of the attempt bound: the first handler of the execution chain arms the bound of the
 * Triage call running on this thread with a way to shut this exchange's connection down. It stays armed while a
 * decoder reads the body, and is disarmed when the call ends. When the adapter asks for it (Feign's), a 2xx
 * answer's entity is wrapped in a {@link BodyGuard} the adapter settles.
 */
public final class AttemptAbortInterceptor implements ExecChainHandler {

	/** The name the handler is registered under. */
	public static final String NAME = "triage-attempt-abort";

	/** The name its {@link #sendingMark() mark} is registered under, before the chain's main transport. */
	public static final String SENDING_NAME = "triage-attempt-sending";

	private static final Log logger = LogFactory.getLog(AttemptAbortInterceptor.class);

	/** Whether the exchange holds a connection; else it waits for a pooled one. */
	private static final Predicate<ExecRuntime> HOLDS_CONNECTION = ExecRuntime::isEndpointAcquired;

	/** Shuts an exchange's connection down; one for every bound, so that arming one captures nothing. */
	private static final Consumer<ExecRuntime> SHUTDOWN = (runtime) -> {
		if (runtime instanceof Cancellable cancellable) {
			cancellable.cancel();
		}
		else {
			runtime.discardEndpoint();
		}
	};

	/** The last read timeout reported, reused while the client's read timeout stays the same. */
	private volatile Duration readTimeout;

	/** The last wait for a pooled connection reported, reused while the client's stays the same. */
	private volatile Duration poolTimeout;

	/** Whether the chain also holds this handler's {@link #sendingMark() mark}. */
	private volatile boolean marked;

	/**
	 * Put the attempt bound into an HttpClient 5 chain: this handler first, and its mark just before the main
	 * transport, where the request is sent.
	 * @param builder the client's builder
	 * @return the builder
	 */
	public static HttpClientBuilder addTo(HttpClientBuilder builder) {
		AttemptAbortInterceptor interceptor = new AttemptAbortInterceptor();
		return builder.addExecInterceptorFirst(NAME, interceptor)
			.addExecInterceptorBefore(ChainElement.MAIN_TRANSPORT.name(), SENDING_NAME, interceptor.sendingMark());
	}

	/**
	 * Return the mark of this handler, for the chain just before its main transport: it tells the bound that the
	 * request is about to be sent, and sends nothing once the bound fired. With it, a bound that passes while the
	 * attempt waits for a pooled connection or connects ends the attempt as a {@code pool-timeout} or a
	 * {@code connect-timeout} (nothing was sent); without it, as a {@code read-timeout}, whatever it was doing.
	 * @return the mark
	 */
	public ExecChainHandler sendingMark() {
		this.marked = true;
		return SendingMark.INSTANCE;
	}

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		Call call = Call.innermost();
		if (call != null && call.takeExchange()) {
			call.attemptExchange(scope.execRuntime);
			RequestConfig config = scope.clientContext.getRequestConfig();
			Timeout read = (config != null) ? config.getResponseTimeout() : null;
			// The client's own timeouts, for the report of a transport failure when the adapter cannot see them.
			call.clientTimeouts(null, (read != null && read.isEnabled()) ? readTimeout(read.toMilliseconds()) : null);
			Timeout lease = ((config != null) ? config : RequestConfig.DEFAULT).getConnectionRequestTimeout();
			call.clientPoolTimeout((lease != null && lease.isEnabled()) ? poolTimeout(lease.toMilliseconds()) : null);
			shortenLease(call.abort(), scope.clientContext, config);
			if (this.marked) {
				call.abort().armUntilSent(scope.execRuntime, HOLDS_CONNECTION, SHUTDOWN);
			}
			else {
				call.abort().arm(scope.execRuntime, SHUTDOWN);
			}
			ClassicHttpResponse response;
			try {
				response = chain.proceed(request, scope);
			}
			catch (ConnectTimeoutException ex) {
				// The connect timeout is the connection manager's (where Spring Boot's settings put it): read once
				// a connect timed out, for its report.
				call.clientTimeouts(connectTimeout(config, scope), call.clientReadTimeout());
				throw ex;
			}
			finally {
				if (read == null || !read.isEnabled()) {
					socketTimeout(call, scope.clientContext);
				}
			}
			HttpEntity entity = response.getEntity();
			if (call.guardsBody() && response.getCode() >= 200 && response.getCode() < 300 && entity != null) {
				// The adapter guards the 2xx body here rather than copy the whole response to replace its body.
				GuardedEntity guarded = new GuardedEntity(entity);
				response.setEntity(guarded);
				call.bodyGuarded(guarded);
			}
			return response;
		}
		return chain.proceed(request, scope);
	}

	/**
	 * Shorten the wait for a pooled connection to end at the call's deadline: shutting the exchange down cannot end
	 * that wait (it holds no connection yet), and a call whose deadline passed must not wait on for a connection
	 * and send its request afterwards. A wait so ended is a {@code pool-timeout}: nothing reached the wire. (The
	 * attempt bound without a deadline, there against trickled answers, leaves the pool's own wait as it is.)
	 */
	private static void shortenLease(AttemptAbort abort, HttpClientContext context, RequestConfig config) {
		long left = abort.deadlineNanosLeft();
		if (left == Long.MAX_VALUE) {
			return;
		}
		RequestConfig current = (config != null) ? config : RequestConfig.DEFAULT;
		Timeout lease = current.getConnectionRequestTimeout();
		if (lease != null && lease.isEnabled() && lease.toNanoseconds() <= left) {
			return;
		}
		// Whole milliseconds, at least one: a timeout of zero would wait for ever.
		long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
		context.setRequestConfig(
				RequestConfig.copy(current).setConnectionRequestTimeout(Timeout.ofMilliseconds(millis)).build());
		abort.leaseShortened();
	}

	/**
	 * A request configured with no response timeout waits as long as its connection's socket timeout (where Spring
	 * Boot's HTTP client settings put the read timeout, for the head and for the body): that is the read timeout a
	 * report names. Known once the request was sent on a connection; before that there is nothing to read.
	 */
	private void socketTimeout(Call call, HttpClientContext context) {
		EndpointDetails details = context.getEndpointDetails();
		Timeout socket = (details != null) ? details.getSocketTimeout() : null;
		if (socket != null && socket.toMilliseconds() > 0) {
			call.clientTimeouts(null, readTimeout(socket.toMilliseconds()));
		}
	}

	/**
	 * The connect timeout an attempt ran with: the request configuration's (deprecated there, still honoured), else
	 * the connection configuration of HttpClient 5's pooling connection manager for the route; {@code null} when
	 * neither can be read.
	 */
	@SuppressWarnings({ "deprecation", "unchecked" })
	private static Duration connectTimeout(RequestConfig config, ExecChain.Scope scope) {
		Timeout connect = (config != null) ? config.getConnectTimeout() : null;
		if (connect == null) {
			try {
				Object manager = PrivateFields.read(scope.execRuntime, "manager");
				if (manager instanceof PoolingHttpClientConnectionManager) {
					Resolver<HttpRoute, ConnectionConfig> resolver = (Resolver<HttpRoute, ConnectionConfig>) PrivateFields
						.read(manager, "connectionConfigResolver");
					ConnectionConfig connection = (resolver != null) ? resolver.resolve(scope.route) : null;
					connect = (connection != null) ? connection.getConnectTimeout() : null;
				}
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				logger.debug("Cannot read the connect timeout of " + scope.route, ex);
			}
		}
		return (connect != null && connect.isEnabled()) ? Duration.ofMillis(connect.toMilliseconds()) : null;
	}

	private Duration poolTimeout(long millis) {
		Duration pool = reused(this.poolTimeout, millis);
		this.poolTimeout = pool;
		return pool;
	}

	private Duration readTimeout(long millis) {
		Duration read = reused(this.readTimeout, millis);
		this.readTimeout = read;
		return read;
	}

	/** The last duration reported while the client's setting stays the same: none allocated per attempt. */
	private static Duration reused(Duration last, long millis) {
		return (last != null && last.toMillis() == millis) ? last : Duration.ofMillis(millis);
	}

	/**
	 * Just before the request is sent: refuses to send once the breaker of the attempt's channel opened while it
	 * waited for a connection; tells the attempt's bound, and refuses to send once it fired.
	 */
	private static final class SendingMark implements ExecChainHandler {

		static final SendingMark INSTANCE = new SendingMark();

		@Override
		public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
				throws IOException, HttpException {
			Call call = Call.innermost();
			if (call != null) {
				RefusedException breakerOpened = call.breakerOpenedBeforeSending(scope.execRuntime);
				if (breakerOpened != null) {
					throw breakerOpened;
				}
				if (!call.abort().sending(scope.execRuntime)) {
					throw new InterruptedIOException("the attempt's bound passed before its request was sent");
				}
				call.sending(scope.execRuntime);
			}
			return chain.proceed(request, scope);
		}

	}

}
