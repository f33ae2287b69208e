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

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.triage.engine.Attempt;
import dev.triage.engine.BodyCapture;
import dev.triage.engine.BodyGuard;
import dev.triage.engine.Call;
import dev.triage.engine.CapturedBody;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.RefusedException;
import feign.Client;
import feign.MethodMetadata;
import feign.Request;
import feign.RequestTemplate;
import feign.Response;
import feign.Util;

/**
 * Wraps the real Feign {@link Client} for one attempt and translates it for the {@link Engine}: the engine
 * admits the attempt (and picks its channel), the request goes to the wire, and what came back (a status, or a
 * transport failure) goes to the engine to be classified and recorded. Non-2xx bodies are captured here, once,
 * up to the cap; a 2xx body is guarded so that the attempt ends when the decoder has read it.
 */
final class TriageClient implements Client {

	private static final String HC5_CLIENT = "feign.hc5.ApacheHttp5Client$";

	/** The body type of Feign's Apache HttpClient 5 client, once seen: compared by identity from then on. */
	private static volatile Class<?> hc5Body;

	private final Client delegate;

	private final ManagedClient client;

	/** The timeouts last seen as Durations, reused while they stay the same (a GuardedBody gets them). */
	private volatile Timeouts timeouts;

	TriageClient(Client delegate, ManagedClient client) {
		this.delegate = delegate;
		this.client = client;
	}

	@Override
	public Response execute(Request request, Request.Options options) throws IOException {
		Call call = Call.current(this.client);
		if (call == null) {
			// Not inside a managed method (a client used directly): a call of one attempt.
			call = Call.open(this.client, "");
			try {
				return execute(call, request, options, false);
			}
			finally {
				call.close();
			}
		}
		return execute(call, request, options, true);
	}

	/**
	 * One attempt. Inside a managed method the 2xx body may be guarded inside the HTTP client (the decoder finds
	 * the guard on the call); a call of one attempt ends before anyone reads the body, so its body is guarded here.
	 */
	private Response execute(Call call, Request request, Request.Options options, boolean managed)
			throws IOException {
		Engine engine = call.engine();
		RequestTemplate template = request.requestTemplate();
		String primaryBase = (template != null && template.feignTarget() != null) ? template.feignTarget().url() : null;
		Attempt attempt = engine.begin(call, request.httpMethod().name(), request.url(), primaryBase,
				request.body());
		Request sent = (attempt.url().equals(request.url())) ? request : Request.create(request.httpMethod(),
				attempt.url(), request.headers(), request.body(), request.charset(), template);
		Request.Options effective = withinDeadline(engine, options, call);
		boolean raw = returnsRawResponse(sent);
		if (effective != null) {
			engine.bound(call, effective.connectTimeoutMillis(), effective.readTimeoutMillis(), !raw);
		}
		else {
			engine.bound(call, -1, -1, !raw);
		}
		Response response;
		call.guardBody(managed);
		try {
			response = this.delegate.execute(sent, effective);
		}
		catch (RefusedException ex) {
			throw engine.refusedBeforeSending(attempt, ex);
		}
		catch (IOException ex) {
			throw engine.failed(attempt, ex, connectTimeout(effective), readTimeout(effective));
		}
		catch (RuntimeException ex) {
			IOException cut = Engine.cutShort(call, ex);
			if (cut == null) {
				engine.interrupted(attempt);
				throw ex;
			}
			throw engine.failed(attempt, cut, connectTimeout(effective), readTimeout(effective));
		}
		catch (Error ex) {
			engine.interrupted(attempt);
			throw ex;
		}
		finally {
			call.guardBody(false);
			// Not taken by an HTTP client that has no Triage handler: no later exchange is the attempt's.
			call.takeExchange();
		}
		int status = response.status();
		if (status >= 200 && status < 300) {
			Response.Body body = response.body();
			BodyGuard guard = call.bodyGuard();
			boolean inEntity = guard != null && body != null && readsThroughEntity(body);
			// Apache HttpClient 5 read the content type into its entity: taken there, not looked up again.
			String contentType = inEntity ? guard.contentType() : contentType(response);
			// A stream is watched whoever reads it: a decoder, or the caller of a method returning the response.
			boolean watched = Engine.isEventStream(contentType);
			Engine.Settlement settlement = engine.succeeded(attempt, status, (!raw || watched) && body != null);
			if (settlement == null) {
				return response;
			}
			call.lastBody(settlement);
			if (!watched && inEntity) {
				// Apache HttpClient 5 guards the body inside its entity: the response goes on as it came, its
				// headers not copied once more.
				Timeouts timeouts = timeouts(effective);
				guard.settle(settlement, timeouts.connect(), timeouts.read());
				return response;
			}
			if (watched) {
				body = new WatchedBody(body, settlement, contentType, response.reason(), response.headers());
			}
			Timeouts timeouts = timeouts(effective);
			return response.toBuilder()
				.body(new GuardedBody(body, settlement, timeouts.connect(), timeouts.read()))
				.build();
		}
		if (raw) {
			// The caller asked for the feign.Response itself: Feign hands it over without decoding errors, so
			// the body is left whole for the caller and the status alone decides how the breaker counts it.
			engine.responded(attempt, status, response.reason(), response.headers(), null);
			return response;
		}
		CapturedBody body = capture(response, engine.runtime());
		engine.responded(attempt, status, response.reason(), response.headers(), body);
		return response.toBuilder().body(new BufferedBody(body)).build();
	}

	/**
	 * Read an error body once, up to the cap.
	 */
	static CapturedBody capture(Response response, ClientRuntime runtime) {
		Response.Body body = response.body();
		if (body instanceof BufferedBody buffered) {
			return buffered.captured();
		}
		if (body == null) {
			return CapturedBody.EMPTY;
		}
		try {
			return BodyCapture.capture(body.asInputStream(), body.length(), runtime, response.status());
		}
		catch (IOException ex) {
			// The body broke off before it began: nothing arrived, and that is not all of it.
			return new CapturedBody(new byte[0], true, runtime.errorTypes().extract(new byte[0]));
		}
		finally {
			Util.ensureClosed(body);
		}
	}

	/**
	 * Return whether a body reads through the entity of the Apache HttpClient 5 answer (Feign's client for it reads
	 * and closes its body through the entity), so that a guard on the entity guards the body.
	 */
	private static boolean readsThroughEntity(Response.Body body) {
		Class<?> type = body.getClass();
		if (type == hc5Body) {
			return true;
		}
		if (type.getName().startsWith(HC5_CLIENT)) {
			hc5Body = type;
			return true;
		}
		return false;
	}

	/**
	 * Return the answer's content type. A Feign response's headers are case-insensitive (its constructor copies
	 * them into such a map): a lookup, where a walk over every header would allocate an iterator and an entry
	 * view per header.
	 */
	private static String contentType(Response response) {
		Map<String, Collection<String>> headers = response.headers();
		Collection<String> values = (headers != null) ? headers.get("Content-Type") : null;
		return (values != null && !values.isEmpty()) ? values.iterator().next() : null;
	}

	private Timeouts timeouts(Request.Options options) {
		if (options == null) {
			return Timeouts.UNKNOWN;
		}
		Timeouts timeouts = this.timeouts;
		if (timeouts == null || !timeouts.same(options)) {
			timeouts = new Timeouts(connectTimeout(options), readTimeout(options));
			this.timeouts = timeouts;
		}
		return timeouts;
	}

	/**
	 * An attempt's timeouts as Durations, {@code null} when unknown.
	 */
	private record Timeouts(Duration connect, Duration read) {

		static final Timeouts UNKNOWN = new Timeouts(null, null);

		boolean same(Request.Options options) {
			return this.connect != null && this.connect.toMillis() == options.connectTimeoutMillis()
					&& this.read.toMillis() == options.readTimeoutMillis();
		}

	}

	private static Duration connectTimeout(Request.Options options) {
		return (options != null) ? Duration.ofMillis(options.connectTimeoutMillis()) : null;
	}

	private static Duration readTimeout(Request.Options options) {
		return (options != null) ? Duration.ofMillis(options.readTimeoutMillis()) : null;
	}

	private static boolean returnsRawResponse(Request request) {
		RequestTemplate template = request.requestTemplate();
		MethodMetadata metadata = (template != null) ? template.methodMetadata() : null;
		return metadata != null && metadata.returnType() == Response.class;
	}

	/**
	 * The deadline is the call's total budget: an attempt may not read for longer than what is left of it.
	 */
	private static Request.Options withinDeadline(Engine engine, Request.Options options, Call call) {
		if (options == null) {
			return null;
		}
		long read = engine.readTimeoutWithinDeadline(call, options.readTimeoutMillis());
		if (read == options.readTimeoutMillis()) {
			return options;
		}
		return new Request.Options(options.connectTimeoutMillis(), TimeUnit.MILLISECONDS, read, TimeUnit.MILLISECONDS,
				options.isFollowRedirects());
	}

}
