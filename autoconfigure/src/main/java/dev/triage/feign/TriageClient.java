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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.triage.AttemptOutcome;
import dev.triage.FailureClass;
import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.TransportFailure;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.HttpStatuses;
import dev.triage.policy.PolicyKey;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.overload.Overload;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.RetryAfter;
import dev.triage.policy.Rule;
import feign.Client;
import feign.MethodMetadata;
import feign.Request;
import feign.RequestTemplate;
import feign.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Wraps the real Feign {@link Client} for one attempt: asks the upstream's breaker first, classifies what
 * came back (a status, possibly with an error type; or a transport failure), and records it in the breaker as
 * the rule says. Non-2xx bodies are captured here, once, up to the cap.
 */
final class TriageClient implements Client {

	private static final Log logger = LogFactory.getLog(TriageClient.class);

	private final Client delegate;

	private final ClientRuntime runtime;

	TriageClient(Client delegate, ClientRuntime runtime) {
		this.delegate = delegate;
		this.runtime = runtime;
	}

	@Override
	public Response execute(Request request, Request.Options options) throws IOException {
		CallContext call = CallContext.current(this.runtime);
		PoisonTracker poison = this.runtime.poison();
		String fingerprint = null;
		if (poison.tracking()) {
			fingerprint = fingerprint(request);
			if (poison.isPoisoned(fingerprint)) {
				throw refuse(Refusal.POISON, "request " + fingerprint.substring(0, 12) + "... is poison");
			}
		}
		Channel channel = admit(call);
		Overload overload = this.runtime.overload();
		if (call == null || call.tries() == 0) {
			overload.budget().onFirstAttempt();
		}
		Request sent = onChannel(request, channel);
		int attempt = (call != null) ? call.attemptStarted(sent, channel.name()) : 1;
		String methodKey = (call != null) ? call.methodKey() : "";
		Request.Options effective = withinDeadline(options, call);
		UpstreamBreaker breaker = channel.breaker();
		boolean raw = returnsRawResponse(sent);
		if (call != null) {
			bound(call, effective, raw);
		}
		long start = System.nanoTime();
		Response response;
		try {
			response = this.delegate.execute(sent, effective);
		}
		catch (IOException ex) {
			long duration = System.nanoTime() - start;
			boolean cut = call != null && call.abort().fired();
			TransportFailure failure = cut ? TransportFailure.READ_TIMEOUT : TransportFailures.classify(ex);
			boolean reached = failure != TransportFailure.POOL_TIMEOUT;
			if (!reached && call != null) {
				call.attemptNotSent();
			}
			int attemptsSent = reached ? attempt : attempt - 1;
			Duration timeout = cut ? call.abort().configured()
					: TransportFailures.configuredTimeout(failure, effective, this.runtime.poolTimeout());
			Rule rule = this.runtime.policy().forTransport(failure);
			TransportFailureException classified = new TransportFailureException(failure, timeout, ex);
			Supplier<UpstreamException> answer = once(() -> new UpstreamTransportException(this.runtime.name(),
					methodKey, Requests.requestLine(sent), failure, timeout, attemptsSent, ex));
			record(breaker, rule.breaker(), duration, answer);
			if (call != null) {
				call.answered(answer, rule);
			}
			if (fingerprint != null) {
				poison.onOtherOutcome(fingerprint);
			}
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), 0, failure, FailureClass.TRANSPORT, rule, duration, channel.name()));
			throw classified;
		}
		catch (RuntimeException | Error ex) {
			breaker.record(BreakerOutcome.IGNORE, System.nanoTime() - start, ex);
			throw ex;
		}
		long duration = System.nanoTime() - start;
		int status = response.status();
		if (status >= 200 && status < 300) {
			if (call != null) {
				call.answered(null, null);
			}
			overload.throttle().onAccepted();
			poison.onSuccess(sent.httpMethod().name(), request.url());
			if (fingerprint != null) {
				poison.onOtherOutcome(fingerprint);
			}
			if (raw || response.body() == null) {
				breaker.record(BreakerOutcome.SUCCESS, duration, null);
				this.runtime.observer()
					.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, FailureClass.SUCCESS_2XX, null, duration, channel.name()));
				return response;
			}
			return response.toBuilder()
				.body(new GuardedBody(response.body(), bodyOutcome(call, sent, channel, status, start, attempt, methodKey,
						effective)))
				.build();
		}
		if (raw) {
			// The caller asked for the feign.Response itself: Feign hands it over without decoding errors, so
			// the body is left whole for the caller and the status alone decides how the breaker counts it.
			Rule rule = this.runtime.policy().forStatus(status, null);
			protect(rule, response, channel);
			record(breaker, rule.breaker(), duration, () -> new UpstreamResponseException(ResponseCapture.toOriginal(
					this.runtime, methodKey, response, new CapturedBody(new byte[0], false, null), attempt,
					Duration.ofNanos(duration), channel.name())));
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, failureClass(status), rule, duration,
						channel.name()));
			return response;
		}
		CapturedBody body = ResponseCapture.capture(response, this.runtime);
		Rule rule = this.runtime.policy().forStatus(status, body.errorType());
		PolicyKey key = this.runtime.policy().keyFor(status);
		if (key.kind() == PolicyKey.Kind.UNKNOWN_STATUS && this.runtime.firstSighting(status)) {
			logger.warn("Triage: client '" + this.runtime.name() + "' received non-standard HTTP status " + status
					+ " for the first time; it is handled by the 'unknown-status' rule");
		}
		protect(rule, response, channel);
		Response captured = response.toBuilder().body(body).build();
		// Built once, when first asked (the breaker, for a failure; the error decoder; the method handler), with
		// the call's elapsed time then: it is the OriginalResponse callers and fallbacks get.
		Supplier<UpstreamException> answer = once(() -> new UpstreamResponseException(ResponseCapture.toOriginal(
				this.runtime, methodKey, captured, body, attempt,
				Duration.ofNanos((call != null) ? call.elapsedNanos() : duration), channel.name())));
		record(breaker, rule.breaker(), duration, answer);
		if (call != null) {
			call.answered(answer, rule);
		}
		if (poison.isPoisonStatus(status)) {
			String print = (fingerprint != null) ? fingerprint : fingerprint(request);
			boolean poisoned = poison.onPoisonStatus(print, request.httpMethod().name(), request.url(),
					(failures) -> new PoisonRequestEvent(this.runtime.name(),
					methodKey, request.httpMethod().name(), Requests.sanitizeUrl(request.url()), print,
					cappedBody(request), ResponseCapture.toOriginal(this.runtime, methodKey, captured, body, attempt,
							Duration.ofNanos((call != null) ? call.elapsedNanos() : duration), channel.name()),
					failures, this.runtime.clock().instant()));
			if (poisoned && call != null) {
				call.poisoned(true);
			}
		}
		else if (fingerprint != null) {
			poison.onOtherOutcome(fingerprint);
		}
		this.runtime.observer()
			.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, failureClass(status), rule, duration,
					channel.name()));
		return captured;
	}

	/**
	 * The hard bound of this attempt: the call's deadline, and, for answers a decoder reads, three read timeouts
	 * after the connect timeout (a trickled answer resets the read timeout with every byte). Armed by the HTTP
	 * client when it supports it (Apache HttpClient 5).
	 */
	private void bound(CallContext call, Request.Options options, boolean raw) {
		long now = System.nanoTime();
		long at = Long.MAX_VALUE;
		Duration configured = null;
		Duration deadline = this.runtime.deadline();
		if (deadline != null) {
			at = now - call.elapsedNanos() + deadline.toNanos();
			configured = deadline;
		}
		if (!raw && options != null) {
			Duration attemptBound = Duration.ofMillis(options.connectTimeoutMillis() + 3L * options.readTimeoutMillis());
			if (now + attemptBound.toNanos() < at) {
				at = now + attemptBound.toNanos();
				configured = attemptBound;
			}
		}
		call.abort().bound(at, configured);
	}

	/**
	 * How the body of a 2xx settles the attempt: completed, a success for the breaker; broken off (or cut by the
	 * attempt's bound), a transport failure recorded as its rule says.
	 */
	private GuardedBody.Outcome bodyOutcome(CallContext call, Request sent, Channel channel, int status, long start,
			int attempt, String methodKey, Request.Options options) {
		return new GuardedBody.Outcome() {

			@Override
			public void completed() {
				long duration = System.nanoTime() - start;
				channel.breaker().record(BreakerOutcome.SUCCESS, duration, null);
				TriageClient.this.runtime.observer()
					.onAttempt(new AttemptOutcome(TriageClient.this.runtime.name(), status, null, FailureClass.SUCCESS_2XX, null, duration,
							channel.name()));
			}

			@Override
			public TransportFailureException failed(IOException ex) {
				long duration = System.nanoTime() - start;
				boolean cut = call != null && call.abort().fired();
				TransportFailure failure = cut ? TransportFailure.READ_TIMEOUT : bodyFailure(ex);
				Duration timeout = cut ? call.abort().configured()
						: TransportFailures.configuredTimeout(failure, options, TriageClient.this.runtime.poolTimeout());
				Rule rule = TriageClient.this.runtime.policy().forTransport(failure);
				Supplier<UpstreamException> answer = once(() -> new UpstreamTransportException(
						TriageClient.this.runtime.name(), methodKey, Requests.requestLine(sent), failure, timeout, attempt,
						ex));
				record(channel.breaker(), rule.breaker(), duration, answer);
				if (call != null) {
					call.answered(answer, rule);
				}
				TriageClient.this.runtime.observer()
					.onAttempt(new AttemptOutcome(TriageClient.this.runtime.name(), 0, failure, FailureClass.TRANSPORT, rule,
							duration, channel.name()));
				return new TransportFailureException(failure, timeout, ex);
			}

		};
	}

	/**
	 * A body that breaks off after the status line is a connection reset, whatever exception the client chose
	 * for it, unless the read timed out.
	 */
	private static TransportFailure bodyFailure(IOException ex) {
		TransportFailure failure = TransportFailures.classify(ex);
		return (failure == TransportFailure.READ_TIMEOUT) ? failure : TransportFailure.CONNECTION_RESET;
	}

	/**
	 * Pick the channel of this attempt and ask, in order, whether it is paused, its breaker permits, throttling
	 * lets the attempt through and the rate limiter has a permit. A first attempt goes to the first channel,
	 * in order, that is neither paused nor behind an open breaker; a retry goes where the retryer sent it. A
	 * refusal reaches no wire and gives back the breaker's permit.
	 */
	private Channel admit(CallContext call) throws RefusedException {
		Channels channels = this.runtime.channels();
		Channel channel;
		if (call == null || call.tries() == 0) {
			channel = null;
			for (int i = 0; i < channels.all().size() && channel == null; i++) {
				Channel candidate = channels.get(i);
				if (!candidate.pause().isPaused() && candidate.breaker().tryAcquire()) {
					channel = candidate;
					if (call != null) {
						call.channel(i);
					}
				}
			}
			if (channel == null) {
				throw refuseOn(channels.primary());
			}
		}
		else {
			channel = channels.get(call.channel());
			if (channel.pause().isPaused() || !channel.breaker().tryAcquire()) {
				throw refuseOn(channel);
			}
		}
		Overload overload = this.runtime.overload();
		if (!overload.throttle().admit()) {
			channel.breaker().record(BreakerOutcome.IGNORE, 0, null);
			throw refuse(Refusal.THROTTLED, "the upstream has been rejecting this client's load");
		}
		if (!overload.rateLimit().acquire()) {
			channel.breaker().record(BreakerOutcome.IGNORE, 0, null);
			throw refuse(Refusal.RATE_LIMITED, "rate limiter '" + overload.rateLimit().name() + "' has no permit");
		}
		return channel;
	}

	private RefusedException refuseOn(Channel channel) {
		String upstream = this.runtime.name() + (OriginalResponse.PRIMARY.equals(channel.name()) ? ""
				: " channel " + channel.name());
		if (channel.pause().isPaused()) {
			return refuse(Refusal.PAUSED, "upstream '" + upstream + "' asked to be paused until " + channel.pause().until());
		}
		return refuse(Refusal.BREAKER_OPEN, "circuit breaker of '" + upstream + "' is " + channel.breaker().state());
	}

	private RefusedException refuse(Refusal refusal, String detail) {
		this.runtime.observer().onRefusal(this.runtime.name(), refusal);
		return new RefusedException(refusal, detail);
	}

	/**
	 * Move a request to its channel: the primary's base URL is replaced by the channel's.
	 */
	private static Request onChannel(Request request, Channel channel) {
		if (channel.baseUrl() == null) {
			return request;
		}
		RequestTemplate template = request.requestTemplate();
		String primaryBase = (template != null && template.feignTarget() != null) ? template.feignTarget().url() : null;
		String url = channel.rewrite(request.url(), primaryBase);
		return Request.create(request.httpMethod(), url, request.headers(), request.body(), request.charset(), template);
	}

	/**
	 * What an answer tells the overload protection: an answer that is not a rejection for load counts as
	 * accepted by the throttle, and a valid {@code Retry-After} on a pausing rule pauses the channel that
	 * answered.
	 */
	private void protect(Rule rule, Response response, Channel channel) {
		if (!rule.overload()) {
			this.runtime.overload().throttle().onAccepted();
		}
		if (rule.pause()) {
			Optional<Duration> asked = RetryAfter.parse(Requests.firstHeader(response.headers(), "Retry-After"),
					this.runtime.clock());
			if (asked.isPresent() && !RetryAfter.isBeyondLimit(asked.get())
					&& (rule.retryAfterMax() == null || asked.get().compareTo(rule.retryAfterMax()) <= 0)) {
				channel.pause().pauseFor(asked.get());
			}
		}
	}

	/**
	 * The fingerprint of a request as built for the primary channel: method, full URL, body.
	 */
	private static String fingerprint(Request request) {
		return PoisonTracker.fingerprint(request.httpMethod().name(), request.url(), request.body());
	}

	private byte[] cappedBody(Request request) {
		byte[] body = request.body();
		if (body == null) {
			return new byte[0];
		}
		return (body.length <= this.runtime.maxBodyBytes()) ? body.clone()
				: java.util.Arrays.copyOf(body, this.runtime.maxBodyBytes());
	}

	private static boolean returnsRawResponse(Request request) {
		RequestTemplate template = request.requestTemplate();
		MethodMetadata metadata = (template != null) ? template.methodMetadata() : null;
		return metadata != null && metadata.returnType() == Response.class;
	}

	/**
	 * The deadline is the call's total budget: an attempt may not read for longer than what is left of it.
	 */
	private Request.Options withinDeadline(Request.Options options, CallContext call) {
		Duration deadline = this.runtime.deadline();
		if (deadline == null || call == null || options == null) {
			return options;
		}
		long left = deadline.toMillis() - TimeUnit.NANOSECONDS.toMillis(call.elapsedNanos());
		if (left >= options.readTimeoutMillis()) {
			return options;
		}
		return new Request.Options(options.connectTimeoutMillis(), TimeUnit.MILLISECONDS, Math.max(1, left),
				TimeUnit.MILLISECONDS, options.isFollowRedirects());
	}

	/**
	 * Build the exception describing an attempt at most once, and only if someone asks: the breaker (for a
	 * failure) or the method handler (when a user's own decoder or retryer ended the call).
	 */
	private static Supplier<UpstreamException> once(Supplier<UpstreamException> build) {
		return new Supplier<>() {

			private UpstreamException built;

			@Override
			public UpstreamException get() {
				if (this.built == null) {
					this.built = build.get();
				}
				return this.built;
			}

		};
	}

	private static void record(UpstreamBreaker breaker, BreakerOutcome outcome, long duration,
			Supplier<? extends Throwable> failure) {
		breaker.record(outcome, duration, (outcome == BreakerOutcome.FAILURE) ? failure.get() : null);
	}

	/**
	 * Return the bounded class of a status: its class when IANA-registered, else {@code nonstandard}.
	 */
	static FailureClass failureClass(int status) {
		return FailureClass.ofStatus(status, HttpStatuses.isRegistered(status));
	}

}
