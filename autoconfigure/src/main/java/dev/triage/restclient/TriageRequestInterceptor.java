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
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.triage.CallOutcome;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.engine.Attempt;
import dev.triage.engine.BodyCapture;
import dev.triage.engine.Call;
import dev.triage.engine.CapturedBody;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.RefusedException;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The {@link Engine}'s attempts for a {@code RestClient}: every {@code execution.execute} is one attempt on the
 * wire, admitted, classified and recorded by the engine; between attempts the engine decides and waits. The
 * loop is here, where each attempt is visible: RestClient's status handlers only see the final response. A final
 * non-2xx answer is handed back with its body captured (up to the cap) for {@link TriageStatusHandler} to throw
 * as {@link UpstreamResponseException} (a caller's per-request {@code onStatus} still wins); a transport failure
 * or a refusal is thrown from here, as Triage's typed exception.
 * <p>
 * On Spring Framework 6.2 it must be the last interceptor (interceptors after it run on the first attempt only),
 * and Spring Cloud LoadBalancer's runs inside it, choosing an instance for every attempt; on 7.0 the ones after it
 * run on every attempt.
 */
public final class TriageRequestInterceptor implements ClientHttpRequestInterceptor {

	private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	private final ManagedClient client;

	private final String primaryBase;

	/** The base URL as Spring's URI builder encodes it into a request's URL (non-ASCII, {@code %}, spaces). */
	private final String encodedPrimaryBase;

	private final ClientHttpRequestInterceptor balancer;

	/**
	 * Create the interceptor of one client.
	 * @param client the client
	 * @param primaryBase the client's base URL (its {@code primary} channel), {@code null} when unknown: then a
	 * channel replaces the request's scheme, host and port
	 */
	public TriageRequestInterceptor(ManagedClient client, String primaryBase) {
		this(client, primaryBase, null);
	}

	/**
	 * Create the interceptor of one client that runs another interceptor inside each attempt.
	 * @param client the client
	 * @param primaryBase the client's base URL, {@code null} when unknown
	 * @param balancer Spring Cloud LoadBalancer's interceptor, taken over, to choose an instance for each attempt
	 * (Spring Framework 6.2 would run it once per call before this one), {@code null} for none
	 */
	TriageRequestInterceptor(ManagedClient client, String primaryBase, ClientHttpRequestInterceptor balancer) {
		this.client = client;
		this.balancer = balancer;
		this.primaryBase = (primaryBase != null && primaryBase.endsWith("/"))
				? primaryBase.substring(0, primaryBase.length() - 1) : primaryBase;
		this.encodedPrimaryBase = encoded(this.primaryBase);
	}

	private static String encoded(String base) {
		if (base == null) {
			return null;
		}
		try {
			return UriComponentsBuilder.fromUriString(base).encode().build().toUriString();
		}
		catch (RuntimeException ex) {
			return base;
		}
	}

	/** The load balancer's interceptor run inside each attempt, {@code null} for none. */
	ClientHttpRequestInterceptor balancer() {
		return this.balancer;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Call call = Call.current(this.client);
		if (call != null) {
			return attempts(call, request, body, execution);
		}
		// A call made on the RestClient directly (no service interface): the call is this exchange.
		call = Call.open(this.client, request.getMethod().name() + " " + this.client.name());
		Engine engine = call.engine();
		try {
			UpstreamUnavailableException refused = engine.refuseEarly(call.methodKey());
			if (refused != null) {
				engine.reportFailure(call, refused);
				throw refused;
			}
			ClientHttpResponse response;
			try {
				response = attempts(call, request, body, execution);
			}
			catch (UpstreamException ex) {
				engine.reportFailure(call, ex);
				throw ex;
			}
			if (response instanceof CapturedResponse captured) {
				engine.reportFailure(call, captured.failure());
			}
			else if (response instanceof GuardedResponse guarded) {
				// The caller reads the body after this call: the body ends the call, a success once it has
				// arrived, a failure if it breaks off.
				guarded.settlement().endsCall();
				call.bodyFollows();
			}
			else {
				engine.report(call, CallOutcome.SUCCESS, null, null, false);
			}
			return response;
		}
		finally {
			call.close();
		}
	}

	private ClientHttpResponse attempts(Call call, HttpRequest request, byte[] body,
			ClientHttpRequestExecution execution) throws IOException {
		Engine engine = call.engine();
		String url = request.getURI().toString();
		String method = request.getMethod().name();
		String base = primaryBase(url, request.getURI());
		boolean idempotent = engine.isIdempotent(method, request.getHeaders().getFirst(IDEMPOTENCY_KEY) != null);
		call.idempotent(idempotent);
		// The headers as the caller's request has them: on Framework 7, which runs the interceptors after this one
		// on every attempt, each attempt sends a copy, so that what they add is not added again on the next. On
		// 6.2 they run on the first attempt only: what they added there stays on the request for the retries.
		HttpHeaders headers = ManagedHttpServices.FRAMEWORK_7 ? copy(request.getHeaders()) : null;
		CapturedResponse last = null;
		while (true) {
			Attempt attempt;
			try {
				attempt = engine.begin(call, method, url, base, body);
			}
			catch (RefusedException refused) {
				UpstreamException ended = engine.refused(call, refused);
				if (last != null && ended == last.failure()) {
					return last;
				}
				throw ended;
			}
			HttpRequest sent = forAttempt(request, attempt.url().equals(url) ? null : URI.create(attempt.url()),
					(headers != null) ? copy(headers) : null);
			call.clientTimeouts(null, null);
			engine.bound(call, -1, -1, true);
			ClientHttpResponse response = null;
			int status = 0;
			IOException failed = null;
			boolean notTaken = false;
			try {
				response = (this.balancer != null) ? this.balancer.intercept(sent, body, execution)
						: execution.execute(sent, body);
				// HttpURLConnection (SimpleClientHttpRequestFactory) sends a request with a body without waiting for
				// the answer: its status line, or the timeout or reset instead of it, comes here.
				status = response.getStatusCode().value();
			}
			catch (IOException ex) {
				failed = ex;
				if (response != null) {
					response.close();
					response = null;
				}
			}
			catch (RuntimeException ex) {
				failed = Engine.cutShort(call, ex);
				if (failed == null) {
					engine.interrupted(attempt);
					throw ex;
				}
			}
			catch (Error ex) {
				engine.interrupted(attempt);
				throw ex;
			}
			finally {
				// Not taken by an HTTP client that has no Triage handler: no later exchange is the attempt's.
				notTaken = call.takeExchange();
			}
			if (!idempotent && sent.getHeaders().getFirst(IDEMPOTENCY_KEY) != null) {
				// An interceptor after this one put the key on the request that was sent.
				idempotent = engine.isIdempotent(method, true);
				call.idempotent(idempotent);
			}
			boolean withoutHost = failed != null && sent.getURI().getHost() == null;
			if (withoutHost) {
				// A relative URL (no base URL): the HTTP client failed before sending anything.
				call.attemptWithoutHost();
			}
			else if (notTaken && (response != null || failed != null)) {
				HiddenRetries.sentUnbound(this.client);
			}
			if (failed instanceof RefusedException refused) {
				UpstreamException ended = engine.refused(call, engine.refusedBeforeSending(attempt, refused));
				if (last != null && ended == last.failure()) {
					return last;
				}
				throw ended;
			}
			if (failed != null) {
				engine.failed(attempt, failed, call.clientConnectTimeout(), call.clientReadTimeout());
				UpstreamTransportException failure = (UpstreamTransportException) call.lastAnswer();
				Rule rule = call.lastRule();
				call.failed(failure, rule);
				last = null;
				RetryDecision decision = engine.decide(call, rule, call.tries(), idempotent, Optional.empty(),
						Duration.ofNanos(call.elapsedNanos()));
				if (!decision.retry()) {
					throw failure;
				}
				engine.await(call, decision, failure);
				continue;
			}
			if (status >= 200 && status < 300) {
				Engine.Settlement settlement = engine.succeeded(attempt, status, true);
				call.lastBody(settlement);
				return new GuardedResponse(response, settlement, call.clientConnectTimeout(), call.clientReadTimeout());
			}
			CapturedBody captured;
			try {
				captured = capture(engine.runtime(), response, status);
			}
			finally {
				// Closed before any retry: an unclosed answer would keep its pooled connection.
				response.close();
			}
			Engine.Answer answer = engine.responded(attempt, status, response.getStatusText(),
					headers(response.getHeaders()), captured);
			UpstreamResponseException failure = answer.exception();
			call.failed(failure, answer.rule());
			last = new CapturedResponse(response.getStatusCode(), response.getStatusText(), response.getHeaders(),
					captured.bytes(), failure);
			Rule rule = answer.rule();
			if (!rule.retries() && !(rule.failover() && engine.runtime().channels().hasAlternatives())) {
				return last;
			}
			RetryDecision decision = engine.decide(call, rule, call.tries(), idempotent,
					failure.response().retryAfter(), Duration.ofNanos(call.elapsedNanos()));
			if (!decision.retry()) {
				return last;
			}
			engine.await(call, decision, failure);
		}
	}

	private static CapturedBody capture(ClientRuntime runtime, ClientHttpResponse response, int status) {
		InputStream in;
		try {
			in = response.getBody();
		}
		catch (IOException ex) {
			return new CapturedBody(new byte[0], true, runtime.errorTypes().extract(new byte[0]));
		}
		long declared = response.getHeaders().getContentLength();
		return BodyCapture.capture(in, (declared >= 0 && declared <= Integer.MAX_VALUE) ? (int) declared : null,
				runtime, status);
	}

	/**
	 * Return the headers as a map. Spring Framework 7's {@code HttpHeaders} is no {@code Map} (6.2's is): only
	 * the methods both declare are called.
	 */
	static Map<String, List<String>> headers(HttpHeaders headers) {
		Map<String, List<String>> map = new LinkedHashMap<>();
		headers.forEach(map::put);
		return map;
	}

	/**
	 * The part of a request's URL a channel replaces: the client's base URL when the request is built on it (up to
	 * a path boundary), else the request's scheme, host and port.
	 */
	private String primaryBase(String url, URI uri) {
		if (startsWithBase(url, this.primaryBase)) {
			return this.primaryBase;
		}
		if (startsWithBase(url, this.encodedPrimaryBase)) {
			// A base path with characters Spring's URI builder encodes: the request's URL has it encoded.
			return this.encodedPrimaryBase;
		}
		return origin(uri);
	}

	private static boolean startsWithBase(String url, String base) {
		return base != null && url.startsWith(base)
				&& (url.length() == base.length() || "/?#".indexOf(url.charAt(base.length())) >= 0);
	}

	private static String origin(URI uri) {
		if (uri.getScheme() == null || uri.getRawAuthority() == null) {
			return null;
		}
		return uri.getScheme() + "://" + uri.getRawAuthority();
	}

	/**
	 * The request one attempt sends: on a channel's URL ({@code null}: the request's own) and with headers of its
	 * own ({@code null}: the request's).
	 */
	private static HttpRequest forAttempt(HttpRequest request, URI channel, HttpHeaders headers) {
		if (channel == null && headers == null) {
			return request;
		}
		return new HttpRequestWrapper(request) {

			@Override
			public URI getURI() {
				return (channel != null) ? channel : super.getURI();
			}

			@Override
			public HttpHeaders getHeaders() {
				return (headers != null) ? headers : super.getHeaders();
			}

		};
	}

	/**
	 * Return a copy of headers. Only the methods Spring Framework 6.2's and 7's {@code HttpHeaders} both declare are
	 * called.
	 */
	private static HttpHeaders copy(HttpHeaders headers) {
		HttpHeaders copy = new HttpHeaders();
		headers.forEach(copy::addAll);
		return copy;
	}

}
