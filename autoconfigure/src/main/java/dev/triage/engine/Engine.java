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

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import dev.triage.OriginalResponse;
import dev.triage.Refusal;
import dev.triage.RetryRecord;
import dev.triage.TransportFailure;
import dev.triage.TriageFallback;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.HttpStatuses;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.RetryAfter;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A managed call's whole life for one client, whatever kind of client makes it: admission of each attempt
 * through the {@link Protections} (poison, channel and breaker, pause, throttle, rate limit, budget), what an
 * attempt ended in (classified by its rule, recorded), the retry decision and its wait, the attempt bounds, and
 * the call's end (the fallback decision and the report). No HTTP client types: an adapter (Feign's, the HTTP
 * service clients') translates its client's request, response and hooks to these steps and back.
 * <p>
 * An attempt: {@link #begin} (may refuse), then exactly one of {@link #failed}, {@link #responded} or
 * {@link #succeeded} (whose {@link Settlement} reports the end of a 2xx body). Between attempts:
 * {@link #decide} and {@link #await}. At the end: {@link #fail} or {@link #report}.
 */
public final class Engine {

	private static final Log logger = LogFactory.getLog(Engine.class);

	private static final VarHandle SETTLED;

	static {
		try {
			SETTLED = MethodHandles.lookup().findVarHandle(Settlement.class, "settled", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final ClientRuntime runtime;

	private final Protection[] protections;

	private final Shutdown shutdown;

	/**
	 * Create the engine of one client, outside an application (it never closes).
	 * @param runtime the client's runtime
	 */
	public Engine(ClientRuntime runtime) {
		this(runtime, Shutdown.NEVER);
	}

	/**
	 * Create the engine of one client.
	 * @param runtime the client's runtime
	 * @param shutdown closes when the application's clients do
	 */
	public Engine(ClientRuntime runtime, Shutdown shutdown) {
		this.runtime = runtime;
		this.protections = Protections.of(runtime);
		this.shutdown = shutdown;
	}

	/**
	 * Return the client's runtime.
	 * @return the runtime
	 */
	public ClientRuntime runtime() {
		return this.runtime;
	}

	// ---- one attempt

	/**
	 * Admit an attempt: every protection, in order, may refuse it; a refusal reaches no wire, is counted, and
	 * gives back what the protections before it took.
	 * @param call the call
	 * @param method the HTTP method
	 * @param url the request URL as built for the primary channel
	 * @param primaryBase the primary's base URL, {@code null} when unknown
	 * @param body the request body, {@code null} for none
	 * @return the attempt, whose {@link Attempt#url()} is on its channel
	 * @throws RefusedException when a protection refused it
	 */
	public Attempt begin(Call call, String method, String url, String primaryBase, byte[] body)
			throws RefusedException {
		Attempt attempt = new Attempt(call, method, url, body);
		Protection[] all = this.protections;
		for (int i = 0; i < all.length; i++) {
			RefusedException refused = all[i].before(attempt);
			if (refused != null) {
				for (int j = i - 1; j >= 0; j--) {
					all[j].refused(attempt);
				}
				this.runtime.observer().onRefusal(this.runtime.name(), refused.refusal());
				throw refused;
			}
		}
		attempt.sentUrl = attempt.channel.rewrite(url, primaryBase);
		attempt.number = call.attemptStarted(method, attempt.sentUrl, attempt.channel.name());
		attempt.startNanos = System.nanoTime();
		return attempt;
	}

	/**
	 * The attempt got no answer: classify the failure, record it as its rule says.
	 * @param attempt the attempt
	 * @param ex what the client threw
	 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
	 * @param readTimeout the attempt's read timeout, {@code null} when unknown
	 * @return the classified failure, for the adapter to hand to the retry decision
	 */
	public TransportFailureException failed(Attempt attempt, IOException ex, Duration connectTimeout,
			Duration readTimeout) {
		long duration = System.nanoTime() - attempt.startNanos;
		Call call = attempt.call;
		AttemptAbort abort = call.abort();
		TransportFailure failure = TransportFailures.classify(ex);
		// A bound that fired ended the attempt as what it was doing then: a read timeout once the request may have
		// reached the upstream, else a failure before the wire. A wait for a pooled connection that ran out held
		// none, whether the bound fired meanwhile or not.
		TransportFailure cutAs = abort.cutAs();
		boolean cut = cutAs != null && failure != TransportFailure.POOL_TIMEOUT;
		boolean shortened = !cut && failure == TransportFailure.POOL_TIMEOUT && abort.isLeaseShortened();
		boolean ranOut = !cut && ranOutWithTheDeadline(abort, failure);
		if (cut) {
			failure = cutAs;
		}
		// Nothing reached the wire when the attempt never had a connection to send on, unless a request of it did
		// before (a redirect the client followed), or when its request named no host.
		boolean reached = !call.attemptHasNoHost() && (!failure.beforeTheWire() || call.attemptSent());
		if (!reached) {
			call.attemptNotSent();
		}
		Duration timeout = cut ? abort.configured() : (shortened || ranOut) ? abort.deadline()
				: TransportFailures.configuredTimeout(failure, connectTimeout, readTimeout, poolTimeout(call));
		IOException said = cut ? cutBy(abort, failure, ex) : ranOut ? deadlinePassed(abort, failure, ex) : ex;
		return transport(attempt, failure, timeout, said, reached ? attempt.number : attempt.number - 1, duration,
				true);
	}

	/**
	 * Return whether a timeout ran out with the call's deadline: the attempt's timeouts were cut to what was left
	 * of the deadline ({@link #readTimeoutWithinDeadline}; the JDK's clients' connect timeout too), and the HTTP
	 * client's timer fired before the bound's watch (busy threads hold it back a few ms; the JDK's clients have no
	 * bound). The deadline ended that attempt, not a configured timeout, and it is said so, as when the bound cuts.
	 * @param abort the attempt's bound
	 * @param failure what the HTTP client's failure was
	 * @return whether the deadline had passed when the timeout fired
	 */
	static boolean ranOutWithTheDeadline(AttemptAbort abort, TransportFailure failure) {
		return (failure == TransportFailure.READ_TIMEOUT || failure == TransportFailure.CONNECT_TIMEOUT)
				&& abort.deadline() != null && abort.deadlineNanosLeft() <= 0;
	}

	/**
	 * What a timeout that ran out with the deadline failed with, as people read it.
	 */
	static IOException deadlinePassed(AttemptAbort abort, TransportFailure failure, IOException ex) {
		SocketTimeoutException described = new SocketTimeoutException(
				"the call's deadline of " + abort.deadline().toMillis() + "ms passed" + during(failure));
		described.initCause(ex);
		return described;
	}

	/**
	 * Return how long the attempt could wait for a pooled connection: what the HTTP client's request configuration
	 * said, else what Triage's settings say.
	 */
	private Duration poolTimeout(Call call) {
		Duration client = call.clientPoolTimeout();
		return (client != null) ? client : this.runtime.poolTimeout();
	}

	/**
	 * The HTTP client threw something that is not an I/O failure. When the attempt's bound fired, that is what
	 * shutting its connection down did to the client between two of its steps (HttpClient 5's "Endpoint not
	 * acquired / already released", a NullPointerException on the released connection): the cut, handed to
	 * {@link #failed} as an I/O failure. Else {@code null}: not the upstream's doing ({@link #interrupted}).
	 * @param call the call
	 * @param ex what the client threw
	 * @return the cut as an I/O failure, {@code null} when the bound did not fire
	 */
	public static IOException cutShort(Call call, RuntimeException ex) {
		if (!call.abort().fired()) {
			return null;
		}
		InterruptedIOException cut = new InterruptedIOException("the attempt's bound shut its connection down");
		cut.initCause(ex);
		return cut;
	}

	/**
	 * What a cut attempt failed with, as people read it: the connection Triage shut down made the client throw
	 * something like "Socket closed", which says nothing of the bound that passed.
	 */
	static IOException cutBy(AttemptAbort abort, TransportFailure cutAs, IOException ex) {
		Duration bound = abort.configured();
		if (abort.tooLateToSend()) {
			SocketTimeoutException held = new SocketTimeoutException("less than " + AttemptAbort.SEND_MARGIN_MILLIS
					+ "ms of " + (abort.boundIsDeadline() ? "the call's deadline of " : "the attempt's bound of ")
					+ bound.toMillis() + "ms was left when its connection was ready: not sent");
			held.initCause(ex);
			return held;
		}
		String what = abort.boundIsDeadline() ? "the call's deadline of " + bound.toMillis() + "ms passed"
				: "the attempt's bound of " + bound.toMillis() + "ms (connect-timeout + 3 x read-timeout) passed";
		SocketTimeoutException described = new SocketTimeoutException(what + during(cutAs));
		described.initCause(ex);
		return described;
	}

	private static String during(TransportFailure failure) {
		return switch (failure) {
			case CONNECT_TIMEOUT -> " while connecting";
			case POOL_TIMEOUT -> " while the attempt waited for a pooled connection";
			default -> " while the answer was awaited";
		};
	}

	private TransportFailureException transport(Attempt attempt, TransportFailure failure, Duration timeout,
			IOException ex, int attemptsSent, long duration, boolean answeredNow) {
		Rule rule = this.runtime.policy().forTransport(failure);
		Supplier<UpstreamException> answer = Outcome.once(() -> new UpstreamTransportException(this.runtime.name(),
				attempt.call.methodKey(), attempt.requestLine(), failure, timeout, attemptsSent, ex));
		Outcome outcome = Outcome.transport(failure, rule, duration, answer);
		settle(attempt, outcome, answeredNow);
		attempt.call.answered(answer, rule);
		return new TransportFailureException(this.runtime.name() + " " + attempt.call.methodKey() + ": "
				+ failure.key() + " [" + attempt.requestLine() + "]: " + ex.getClass().getSimpleName(), failure,
				timeout, ex);
	}

	/**
	 * The attempt was refused after it was admitted, before its request was sent (the breaker of its channel opened
	 * while it waited for a connection): nothing reached the wire, what the protections took is given back, and the
	 * refusal is counted. The adapter ends the call as for any refusal ({@link #refused(Call, RefusedException)}).
	 * @param attempt the attempt
	 * @param refused the refusal
	 * @return the refusal
	 */
	public RefusedException refusedBeforeSending(Attempt attempt, RefusedException refused) {
		attempt.call.attemptNotSent();
		interrupted(attempt);
		this.runtime.observer().onRefusal(this.runtime.name(), refused.refusal());
		return refused;
	}

	/**
	 * The client threw something that is not an I/O failure while sending: nothing to learn about the
	 * upstream, what the protections took (the breaker's permit, the bulkhead's) is given back.
	 * @param attempt the attempt
	 */
	public void interrupted(Attempt attempt) {
		Protection[] all = this.protections;
		for (int i = all.length - 1; i >= 0; i--) {
			all[i].refused(attempt);
		}
	}

	/**
	 * The attempt got a non-2xx answer: classify it by status and error type, record it as its rule says.
	 * @param attempt the attempt
	 * @param status the status
	 * @param reason the reason phrase, {@code null} for none
	 * @param headers the response headers
	 * @param body the captured error body; {@code null} when the caller takes the response itself (the status
	 * alone decides, nothing is read)
	 * @return the answer: its rule and the exception that describes it
	 */
	public Answer responded(Attempt attempt, int status, String reason, Map<String, ? extends Collection<String>> headers,
			CapturedBody body) {
		long duration = System.nanoTime() - attempt.startNanos;
		boolean raw = body == null;
		CapturedBody captured = raw ? CapturedBody.EMPTY : body;
		Rule rule = this.runtime.policy().forStatus(status, captured.errorType());
		if (!raw && this.runtime.policy().keyFor(status).kind() == PolicyKey.Kind.UNKNOWN_STATUS
				&& this.runtime.firstSighting(status)) {
			logger.warn("Triage: client '" + this.runtime.name() + "' received non-standard HTTP status " + status
					+ " for the first time; it is handled by the 'unknown-status' rule");
		}
		Call call = attempt.call;
		// Built once, when first asked (the breaker, for a failure; the adapter; a poison event), with the call's
		// elapsed time then: it is the OriginalResponse callers and fallbacks get.
		Supplier<OriginalResponse> response = Outcome.once(() -> original(call.methodKey(), attempt.method,
				attempt.sentUrl, status, reason, headers, captured, attempt.number,
				Duration.ofNanos(raw ? duration : call.elapsedNanos()), attempt.channel.name()));
		Supplier<UpstreamException> answer = Outcome.once(() -> new UpstreamResponseException(response.get()));
		Outcome outcome = Outcome.response(status, rule, duration, Requests.firstHeader(headers, "Retry-After"), raw,
				response, answer);
		settle(attempt, outcome, true);
		if (!raw) {
			call.answered(answer, rule);
		}
		return new Answer(rule, answer);
	}

	/**
	 * The attempt got a 2xx answer.
	 * @param attempt the attempt
	 * @param status the status
	 * @param bodyFollows whether a body is still to be read: the attempt is over only when it has arrived
	 * @return how the body ends, {@code null} when nothing follows
	 */
	public Settlement succeeded(Attempt attempt, int status, boolean bodyFollows) {
		attempt.call.answered(null, null);
		Protection[] all = this.protections;
		Outcome outcome = Outcome.success(status, System.nanoTime() - attempt.startNanos);
		for (Protection protection : all) {
			protection.answered(attempt, outcome);
		}
		if (!bodyFollows) {
			for (Protection protection : all) {
				protection.settled(attempt, outcome);
			}
			return null;
		}
		return new Settlement(attempt, outcome);
	}

	private void settle(Attempt attempt, Outcome outcome, boolean answeredNow) {
		Protection[] all = this.protections;
		if (answeredNow) {
			for (Protection protection : all) {
				protection.answered(attempt, outcome);
			}
		}
		for (Protection protection : all) {
			protection.settled(attempt, outcome);
		}
	}

	/**
	 * Build what the upstream said, as callers and fallbacks get it.
	 * @param methodKey the method key
	 * @param method the HTTP method
	 * @param url the URL the request went to
	 * @param status the status
	 * @param reason the reason phrase
	 * @param headers the response headers (redacted here)
	 * @param body the captured body
	 * @param attempts the attempts that reached the wire
	 * @param elapsed the call's time so far
	 * @param channel the channel that answered
	 * @return the response
	 */
	public OriginalResponse original(String methodKey, String method, String url, int status, String reason,
			Map<String, ? extends Collection<String>> headers, CapturedBody body, int attempts, Duration elapsed,
			String channel) {
		String retryAfterHeader = Requests.firstHeader(headers, "Retry-After");
		Optional<Duration> retryAfter = RetryAfter.parse(retryAfterHeader, this.runtime.clock());
		if (retryAfterHeader != null && retryAfter.isEmpty()) {
			logger.debug("Ignoring malformed Retry-After from " + this.runtime.name()
					+ ": not seconds or an HTTP-date");
		}
		return new OriginalResponse(this.runtime.name(), methodKey, (method != null) ? method : "",
				(url != null) ? Requests.sanitizeUrl(url) : "", status, reason,
				Requests.redact(headers, this.runtime.sensitiveHeaders()), body.bytes(), body.truncated(),
				body.errorType(), retryAfter, attempts, elapsed, channel);
	}

	/**
	 * The rule and the described outcome of a non-2xx attempt.
	 *
	 * @param rule the rule
	 * @param answer the outcome as the caller would get it, built when first asked
	 */
	public record Answer(Rule rule, Supplier<UpstreamException> answer) {

		/**
		 * Return the outcome as an exception.
		 * @return the exception
		 */
		public UpstreamResponseException exception() {
			return (UpstreamResponseException) this.answer.get();
		}

	}

	/**
	 * How the body of a 2xx settles the attempt: completed, a success for the breaker; broken off (or cut by the
	 * attempt's bound), a transport failure recorded as its rule says. The adapter reports exactly one of the two.
	 */
	public final class Settlement {

		private final Attempt attempt;

		private final int status;

		// What the protections were told when the status arrived; told again, with the attempt's whole
		// duration, when the body has arrived.
		private final Outcome outcome;

		private String reason;

		private Map<String, ? extends Collection<String>> headers = Map.of();

		/** Settled once: by the body's end, its failure or an error event, whichever comes first. */
		private volatile boolean settled;

		private TransportFailureException failure;

		/**
		 * The call this body ends, when no adapter is left to report it: a call made on a client directly, whose
		 * caller reads the body after Triage's part of the call (a {@code RestClient} without a service interface).
		 */
		private volatile Call ends;

		/** Whether a reader of a body that breaks off gets the call's {@link UpstreamTransportException}. */
		private volatile boolean typedOnRead;

		/** What the body ended in when it broke off or carried an error event; {@code null} otherwise. */
		private volatile UpstreamException endedWith;

		Settlement(Attempt attempt, Outcome outcome) {
			this.attempt = attempt;
			this.status = outcome.status;
			this.outcome = outcome;
		}

		/**
		 * Return the body's stream guarded: its end (or closing it) completes the attempt, a failure to read it
		 * fails the attempt, whichever comes first.
		 * @param body the body's stream
		 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
		 * @param readTimeout the attempt's read timeout, {@code null} when unknown
		 * @return the guarded stream
		 */
		public InputStream guard(InputStream body, Duration connectTimeout, Duration readTimeout) {
			return new FilterInputStream(body) {

				@Override
				public int read() throws IOException {
					try {
						int b = super.read();
						if (b == -1) {
							completed();
						}
						return b;
					}
					catch (IOException ex) {
						throw failedReading(ex, connectTimeout, readTimeout);
					}
				}

				@Override
				public int read(byte[] buffer, int offset, int length) throws IOException {
					try {
						int n = super.read(buffer, offset, length);
						if (n == -1) {
							completed();
						}
						return n;
					}
					catch (IOException ex) {
						throw failedReading(ex, connectTimeout, readTimeout);
					}
				}

				@Override
				public void close() throws IOException {
					try {
						super.close();
					}
					finally {
						completed();
					}
				}

			};
		}

		/**
		 * Let the body end its call: the call is reported when the body settles (a success once it has arrived or
		 * been closed, a failure when it breaks off or an error event arrives in it), and a reader of a body that
		 * breaks off gets Triage's {@link UpstreamTransportException}, as a caller of the call would.
		 */
		public void endsCall() {
			this.typedOnRead = true;
			this.ends = this.attempt.call;
		}

		/**
		 * The call's adapter returns this 2xx body to its caller (a service method returning an
		 * {@code InputStream}, a Feign method returning the {@code feign.Response} of an event stream): report the
		 * call now if the body already settled, as what it ended in (a body read ahead to an error event, or that
		 * broke off), else let the body end the call when it settles. A reader of a body that breaks off gets the
		 * {@link TransportFailureException} (an {@code IOException}) an {@code InputStream} reader expects.
		 * @return whether the body ends the call (it is still to be read), so the adapter must not close the call's
		 * attempt bound
		 */
		public boolean returnedToCaller() {
			Call call = this.attempt.call;
			if (!this.settled) {
				// Only the reading thread settles a body, and the caller has not got it yet.
				this.ends = call;
				return true;
			}
			UpstreamException failed = this.endedWith;
			if (failed == null) {
				report(call, CallOutcome.SUCCESS, null, null, false);
			}
			else {
				call.failed(failed, call.lastRule());
				reportFailure(call, failed);
			}
			return false;
		}

		/**
		 * Reading the body failed: the attempt's transport failure if the attempt was not over yet, else what the
		 * client threw.
		 * @param ex the client's exception
		 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
		 * @param readTimeout the attempt's read timeout, {@code null} when unknown
		 * @return what to throw to the reader
		 */
		public IOException failedReading(IOException ex, Duration connectTimeout, Duration readTimeout) {
			TransportFailureException recorded = failed(ex, connectTimeout, readTimeout);
			Call ends = this.ends;
			if (ends != null && this.typedOnRead && failure() != null) {
				throw (UpstreamTransportException) ends.lastFailure();
			}
			return (this.failure == recorded) ? recorded : (this.failure != null) ? this.failure : ex;
		}

		/**
		 * Return how reading the body failed.
		 * @return the failure, {@code null} when it did not fail
		 */
		public synchronized TransportFailureException failure() {
			return this.failure;
		}

		/**
		 * Watch the body as the caller reads it when it is an event stream (SSE or NDJSON): an error event inside
		 * it ends the stream with the typed exception (SPEC §4.1).
		 * @param body the body's stream
		 * @param contentType the answer's content type, {@code null} when none
		 * @param reason the answer's reason phrase
		 * @param headers the answer's headers, for the original response of an error event
		 * @return the stream to hand the caller
		 */
		public InputStream watch(InputStream body, String contentType, String reason,
				Map<String, ? extends Collection<String>> headers) {
			if (!StreamWatch.watched(contentType)) {
				return body;
			}
			this.reason = reason;
			this.headers = headers;
			return new StreamWatch(body, StreamWatch.sse(contentType), Engine.this.runtime.maxBodyBytes(), this);
		}

		/**
		 * The body arrived whole (or the caller closed it).
		 */
		public void completed() {
			if (!settle()) {
				return;
			}
			Outcome outcome = this.outcome;
			outcome.durationNanos = System.nanoTime() - this.attempt.startNanos;
			for (Protection protection : Engine.this.protections) {
				protection.settled(this.attempt, outcome);
			}
			Call ends = this.ends;
			if (ends != null) {
				report(ends, CallOutcome.SUCCESS, null, null, false);
			}
		}

		/**
		 * Reading the body failed.
		 * @param ex the failure
		 * @param connectTimeout the attempt's connect timeout, {@code null} when unknown
		 * @param readTimeout the attempt's read timeout, {@code null} when unknown
		 * @return the classified failure
		 */
		public TransportFailureException failed(IOException ex, Duration connectTimeout, Duration readTimeout) {
			long duration = System.nanoTime() - this.attempt.startNanos;
			Call call = this.attempt.call;
			boolean cut = call.abort().fired();
			// A body that breaks off after the status line is a connection reset, whatever exception the client
			// chose for it, unless the read timed out.
			TransportFailure failure = cut ? TransportFailure.READ_TIMEOUT : TransportFailures.classify(ex);
			if (failure != TransportFailure.READ_TIMEOUT) {
				failure = TransportFailure.CONNECTION_RESET;
			}
			Duration timeout = cut ? call.abort().configured()
					: TransportFailures.configuredTimeout(failure, connectTimeout, readTimeout,
							Engine.this.runtime.poolTimeout());
			if (cut) {
				ex = cutBy(call.abort(), failure, ex);
			}
			if (!settle()) {
				return new TransportFailureException(failure, timeout, ex);
			}
			TransportFailureException recorded = transport(this.attempt, failure, timeout, ex, this.attempt.number,
					duration, false);
			synchronized (this) {
				this.failure = recorded;
			}
			this.endedWith = call.lastAnswer();
			Call ends = this.ends;
			if (ends != null) {
				UpstreamException typed = call.lastAnswer();
				call.failed(typed, call.lastRule());
				reportFailure(ends, typed);
			}
			return recorded;
		}

		/**
		 * An error event arrived inside the stream: the attempt is recorded by the event's error-type rule, or the
		 * {@code stream-error} row, and the call ends with it; it is never retried (part of the answer was
		 * delivered).
		 */
		UpstreamResponseException streamError(byte[] event, boolean truncated, String errorType) {
			long duration = System.nanoTime() - this.attempt.startNanos;
			Attempt attempt = this.attempt;
			Call call = attempt.call;
			Rule rule = Engine.this.runtime.policy().forStreamError(errorType);
			UpstreamResponseException answer = new UpstreamResponseException(original(call.methodKey(),
					attempt.method, attempt.sentUrl, this.status, this.reason, this.headers,
					new CapturedBody(event, truncated, errorType), attempt.number, Duration.ofNanos(call.elapsedNanos()),
					attempt.channel.name()));
			boolean settledNow = settle();
			if (settledNow) {
				Outcome outcome = Outcome.streamError(this.status, rule, duration, () -> answer);
				for (Protection protection : Engine.this.protections) {
					protection.settled(attempt, outcome);
				}
			}
			call.answered(() -> answer, rule);
			call.failed(answer, rule);
			if (settledNow) {
				this.endedWith = answer;
			}
			if (this.ends != null && settledNow) {
				reportFailure(call, answer);
			}
			return answer;
		}

		private boolean settle() {
			// Read first: the body's end and its closing both come here, the second finds it settled.
			if (this.settled || !SETTLED.compareAndSet(this, false, true)) {
				return false;
			}
			// The attempt is over, its bound too (read by a failure before it came here).
			this.attempt.call.abort().cancel();
			return true;
		}

	}

	/**
	 * Return whether a 2xx answer of this content type is an event stream the engine watches (SSE, NDJSON).
	 * @param contentType the content type, {@code null} when none
	 * @return whether it is watched
	 */
	public static boolean isEventStream(String contentType) {
		return StreamWatch.watched(contentType);
	}

	/**
	 * Return the Triage exception in a chain of causes: a stream's error event thrown while a decoder or
	 * message converter read the body reaches the adapter wrapped in the reader's own exception.
	 * @param thrown what the call threw
	 * @return the Triage exception, {@code null} when there is none
	 */
	public static UpstreamException upstreamCause(Throwable thrown) {
		return cause(thrown, UpstreamException.class);
	}

	/**
	 * Return the first exception of a type in a chain of causes, the thrown one included.
	 * @param <T> the type
	 * @param thrown what was thrown, may be {@code null}
	 * @param type the type looked for
	 * @return the exception, {@code null} when there is none
	 */
	public static <T extends Throwable> T cause(Throwable thrown, Class<T> type) {
		for (Throwable cause = thrown; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	// ---- time

	/**
	 * Return the read timeout of the next attempt: no longer than what is left of the call's deadline.
	 * @param call the call
	 * @param readTimeoutMillis the configured read timeout
	 * @return the read timeout to use, at least 1 ms
	 */
	public long readTimeoutWithinDeadline(Call call, long readTimeoutMillis) {
		Duration deadline = this.runtime.deadline();
		if (deadline == null) {
			return readTimeoutMillis;
		}
		long left = deadline.toMillis() - Duration.ofNanos(call.elapsedNanos()).toMillis();
		return (left >= readTimeoutMillis) ? readTimeoutMillis : Math.max(1, left);
	}

	/**
	 * Set the hard bound of the next attempt: the call's deadline, and, for answers a decoder reads, three read
	 * timeouts after the connect timeout (a trickled answer resets the read timeout with every byte). Armed by the
	 * HTTP client when it supports it (Apache HttpClient 5).
	 * @param call the call
	 * @param connectTimeoutMillis the attempt's connect timeout, negative when unknown
	 * @param readTimeoutMillis the attempt's read timeout, negative when unknown
	 * @param bodyRead whether a decoder reads the body within the call
	 */
	public void bound(Call call, long connectTimeoutMillis, long readTimeoutMillis, boolean bodyRead) {
		call.expectExchange();
		long now = System.nanoTime();
		long at = Long.MAX_VALUE;
		Duration deadline = this.runtime.deadline();
		if (deadline != null) {
			at = now - call.elapsedNanos() + deadline.toNanos();
		}
		if (bodyRead && readTimeoutMillis >= 0 && connectTimeoutMillis >= 0) {
			long attemptBoundMillis = connectTimeoutMillis + 3L * readTimeoutMillis;
			long attemptBoundNanos = Math.multiplyExact(attemptBoundMillis, 1_000_000L);
			if (now + attemptBoundNanos < at) {
				// Its Duration is built only if it fires.
				call.abort().bound(now + attemptBoundNanos, attemptBoundMillis, at, deadline);
				return;
			}
		}
		call.abort().bound(at, deadline);
	}

	// ---- between attempts

	/**
	 * Decide whether the rule allows another attempt, and where it goes. Seed 001: "retries fix jitter,
	 * switching fixes faults" (重试解决抖动，切换解决故障): an outcome that says the channel is down moves the
	 * next attempt, at once, to the next channel that could take it; without one it is an ordinary retry. A retry
	 * the rule allows is still suppressed for a poison request, an open breaker or an empty budget.
	 * @param call the call, {@code null} when the adapter has none (then the first channel)
	 * @param rule the rule of the failed attempt
	 * @param tries the attempts made so far
	 * @param idempotent whether the request may be repeated
	 * @param retryAfter the server's {@code Retry-After}, if any
	 * @param elapsed the call's time so far
	 * @return the decision
	 */
	public RetryDecision decide(Call call, Rule rule, int tries, boolean idempotent, Optional<Duration> retryAfter,
			Duration elapsed) {
		return decide(call, rule, tries, idempotent, retryAfter, elapsed, false);
	}

	/**
	 * Decide as {@link #decide(Call, Rule, int, boolean, Optional, Duration)}, for an adapter whose application
	 * waits with a retry hook of its own: the wait is not Triage's to know, so the deadline refuses the retry only
	 * once it has passed (the adapter checks it again after the wait, {@link #deadlinePassed(Call, Duration)}).
	 * @param call the call, {@code null} when the adapter has none
	 * @param rule the rule of the failed attempt
	 * @param tries the attempts made so far
	 * @param idempotent whether the request may be repeated
	 * @param retryAfter the server's {@code Retry-After}, if any
	 * @param elapsed the call's time so far
	 * @param ownWaits whether the application's own retry hook waits in Triage's place
	 * @return the decision
	 */
	public RetryDecision decide(Call call, Rule rule, int tries, boolean idempotent, Optional<Duration> retryAfter,
			Duration elapsed, boolean ownWaits) {
		Channels channels = this.runtime.channels();
		int current = (call != null) ? call.channel() : 0;
		int failover = (rule.failover() && channels.hasAlternatives()) ? channels.nextAvailableAfter(current) : -1;
		Duration deadline = this.runtime.deadline();
		RetryDecision decision = this.runtime.planner()
			.decide(rule, tries, idempotent, retryAfter, elapsed, ownWaits ? null : deadline, failover >= 0);
		if (ownWaits && decision.retry() && deadline != null && elapsed.compareTo(deadline) >= 0) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.DEADLINE);
		}
		int next = (failover >= 0) ? failover : current;
		if (decision.retry() && call != null && call.poisoned()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.POISON);
		}
		else if (decision.retry() && channels.get(next).breaker().isOpen()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.BREAKER_OPEN);
		}
		else if (decision.retry() && !this.runtime.overload().budget().tryRetry()) {
			decision = RetryDecision.suppressed(RetryDecision.Suppression.BUDGET);
		}
		if (decision.retry() && call != null) {
			call.channel(next);
		}
		if (!ownWaits || !decision.retry()) {
			// A retry the application's own hook waits for is told once it goes ahead (retrying).
			this.runtime.observer().onRetryDecision(this.runtime.name(), decision);
		}
		if (decision.retry() && call != null && !ownWaits) {
			this.runtime.observer()
				.onRetry(new RetryRecord(this.runtime.name(), call.methodKey(), tries, rule.maxAttempts(),
						code(call.lastAnswer()), decision.delay(),
						channels.hasAlternatives() ? channels.get(next).name() : null));
		}
		if (call != null && decision.suppressed() != null) {
			call.suppressed(decision.suppressed());
		}
		return decision;
	}

	/**
	 * After the application's own retry hook waited: when the call's deadline passes before a further wait is over,
	 * no attempt starts; the retry is reported as suppressed by the deadline.
	 * @param call the call
	 * @param wait the wait still to come before the attempt
	 * @return whether the deadline passes before the wait is over
	 */
	public boolean deadlinePassed(Call call, Duration wait) {
		Duration deadline = this.runtime.deadline();
		if (deadline == null || call == null || call.elapsedNanos() + wait.toNanos() < deadline.toNanos()) {
			return false;
		}
		suppressedAfterDecision(call, RetryDecision.Suppression.DEADLINE);
		return true;
	}

	/**
	 * The application's own retry hook gave up on a retry the table allowed.
	 * @param call the call
	 */
	public void retryerGaveUp(Call call) {
		suppressedAfterDecision(call, RetryDecision.Suppression.RETRYER);
	}

	private void suppressedAfterDecision(Call call, RetryDecision.Suppression reason) {
		this.runtime.observer().onRetryDecision(this.runtime.name(), RetryDecision.suppressed(reason));
		if (call != null) {
			call.suppressed(reason);
		}
	}

	/**
	 * The application's own retry hook waited, and the retry goes ahead: counted and logged now (a retry it gave
	 * up on is not one), with the wait it really made.
	 * @param call the call
	 * @param decision the decision to retry
	 * @param rule the rule of the failed attempt
	 * @param tries the attempts made so far
	 * @param waited how long the call waited
	 */
	public void retrying(Call call, RetryDecision decision, Rule rule, int tries, Duration waited) {
		this.runtime.observer().onRetryDecision(this.runtime.name(), decision);
		if (call == null) {
			return;
		}
		Channels channels = this.runtime.channels();
		this.runtime.observer()
			.onRetry(new RetryRecord(this.runtime.name(), call.methodKey(), tries, rule.maxAttempts(),
					code(call.lastAnswer()), waited,
					channels.hasAlternatives() ? channels.get(call.channel()).name() : null));
	}

	/**
	 * Return whether a request may be repeated: its method is idempotent, or it carries an
	 * {@code Idempotency-Key}.
	 * @param method the HTTP method
	 * @param headers the request headers
	 * @return whether it is idempotent
	 */
	public boolean isIdempotent(String method, Map<String, ? extends Collection<String>> headers) {
		return isIdempotent(method, Requests.firstHeader(headers, "Idempotency-Key") != null);
	}

	/**
	 * Return whether a request may be repeated.
	 * @param method the HTTP method
	 * @param hasIdempotencyKey whether it carries an {@code Idempotency-Key}
	 * @return whether it is idempotent
	 */
	public boolean isIdempotent(String method, boolean hasIdempotencyKey) {
		return this.runtime.planner().isIdempotent(method, hasIdempotencyKey);
	}

	/**
	 * Wait before the next attempt.
	 * @param call the call, {@code null} when the adapter has none
	 * @param decision the decision to retry
	 * @param failure thrown instead when the wait is interrupted or the application closes (no further attempt;
	 * the call log and {@code triage.retries.suppressed} say why)
	 */
	public void await(Call call, RetryDecision decision, RuntimeException failure) {
		await(call, decision.delay(), failure);
	}

	/**
	 * Wait before the next attempt, as {@link #await(Call, RetryDecision, RuntimeException)}.
	 * @param call the call, {@code null} when the adapter has none
	 * @param wait how long
	 * @param failure thrown instead when the wait is interrupted or the application closes
	 */
	public void await(Call call, Duration wait, RuntimeException failure) {
		if (this.shutdown.closed()) {
			// The application is closing, its HTTP clients with it: no further attempt.
			throw waitEnded(call, RetryDecision.Suppression.SHUTDOWN, failure);
		}
		if (wait.isZero()) {
			return;
		}
		try {
			if (!this.shutdown.sleep(wait)) {
				throw waitEnded(call, RetryDecision.Suppression.SHUTDOWN, failure);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw waitEnded(call, RetryDecision.Suppression.INTERRUPTED, failure);
		}
	}

	private RuntimeException waitEnded(Call call, RetryDecision.Suppression reason, RuntimeException failure) {
		suppressedAfterDecision(call, reason);
		return failure;
	}

	/**
	 * A retry (or first attempt) was refused: a refused retry ends the call with what really happened on the
	 * last attempt that reached the wire; a refused first attempt with {@link UpstreamUnavailableException}.
	 * @param call the call, {@code null} when the adapter has none
	 * @param cause the refusal
	 * @return what the call ends with
	 */
	public UpstreamException refused(Call call, RefusedException cause) {
		UpstreamException last = (call != null) ? call.lastFailure() : null;
		if (last != null) {
			RetryDecision.Suppression reason = RetryDecision.Suppression.valueOf(cause.refusal().name());
			this.runtime.observer().onRetryDecision(this.runtime.name(), RetryDecision.suppressed(reason));
			call.suppressed(reason);
			return last;
		}
		return new UpstreamUnavailableException(this.runtime.name(), (call != null) ? call.methodKey() : "",
				cause.refusal(), cause.getMessage(), (call != null) ? call.attempts() : 0);
	}

	// ---- the call's end

	/**
	 * While every channel's breaker is open, refuse at once, before the adapter builds a request, an exception
	 * with a stack trace and a retry sequence for it: refusing must stay cheap while an upstream is down. An open
	 * breaker whose wait is over is asked for a permit (that is what moves it to half-open), and the permit is
	 * given back: the attempt itself takes it again.
	 * @param methodKey the method key of the call
	 * @return the refusal, {@code null} when a channel may take the call
	 */
	public UpstreamUnavailableException refuseEarly(String methodKey) {
		Channels channels = this.runtime.channels();
		// Indexed: an iterator per call is an allocation per call.
		List<Channel> all = channels.all();
		for (int i = 0; i < all.size(); i++) {
			if (!all.get(i).breaker().isOpen()) {
				return null;
			}
		}
		for (int i = 0; i < all.size(); i++) {
			Channel channel = all.get(i);
			if (channel.breaker().tryAcquire()) {
				channel.breaker().record(BreakerOutcome.IGNORE, 0, null);
				return null;
			}
		}
		this.runtime.observer().onRefusal(this.runtime.name(), Refusal.BREAKER_OPEN);
		return new UpstreamUnavailableException(this.runtime.name(), methodKey, Refusal.BREAKER_OPEN,
				"circuit breaker of '" + this.runtime.name() + "' is " + channels.primary().breaker().state(), 0);
	}

	/**
	 * The call failed: report it, and hand what actually happened to the fallback of the service interface the
	 * call was made through, {@code (exception, null)} or {@code (null, response)}; the fallback's answer is
	 * reported as {@code fallback}, never as a success.
	 * @param call the call
	 * @param failure what happened
	 * @param toThrow what the caller gets without a fallback (a user's own error decoder may have chosen it)
	 * @param fallback the fallback, {@code null} for none
	 * @param method the service interface's method, invoked on the fallback's answer
	 * @param argv the call's arguments
	 * @return the fallback's answer
	 * @throws Throwable {@code toThrow}, or what the fallback threw
	 */
	public Object fail(Call call, UpstreamException failure, RuntimeException toThrow, TriageFallback<?> fallback,
			Method method, Object[] argv) throws Throwable {
		Rule rule = (failure instanceof UpstreamUnavailableException) ? null : call.lastRule();
		boolean alert = alertWorthy(failure, rule);
		CallOutcome failed = (failure instanceof UpstreamUnavailableException) ? CallOutcome.SHORT_CIRCUITED
				: CallOutcome.FAILURE;
		if (fallback == null || method == null || (rule != null && !rule.fallback())) {
			report(call, failed, toThrow, failure, alert);
			throw toThrow;
		}
		Object answer;
		try {
			Object target = (failure instanceof UpstreamResponseException response)
					? fallback.create(null, response.response()) : fallback.create(failure, null);
			answer = invokeFallback(target, method, argv);
		}
		catch (Throwable declined) {
			// The fallback chose to fail: the call failed, whatever it threw.
			report(call, failed, toThrow, failure, alert);
			throw declined;
		}
		report(call, CallOutcome.FALLBACK, toThrow, failure, alert, fallbackType(answer, method));
		return answer;
	}

	/**
	 * The call failed and no fallback answers for it (a call made on a client directly): report it.
	 * @param call the call
	 * @param failure what happened, also what the caller gets
	 */
	public void reportFailure(Call call, UpstreamException failure) {
		Rule rule = (failure instanceof UpstreamUnavailableException) ? null : call.lastRule();
		report(call, (failure instanceof UpstreamUnavailableException) ? CallOutcome.SHORT_CIRCUITED
				: CallOutcome.FAILURE, failure, failure, alertWorthy(failure, rule));
	}

	/**
	 * A refusal has no rule: an open breaker is always worth an alert; a client holding itself back (pause,
	 * throttle, rate limit, poison) is working as designed, and its meters show it.
	 */
	private static boolean alertWorthy(UpstreamException failure, Rule rule) {
		return (rule != null) ? rule.alert()
				: !(failure instanceof UpstreamUnavailableException refused) || refused.refusal() == Refusal.BREAKER_OPEN;
	}

	private Object invokeFallback(Object answer, Method method, Object[] argv) throws Throwable {
		if (answer == null) {
			throw new IllegalStateException("TriageFallback for '" + this.runtime.name() + "' returned null");
		}
		if (!method.canAccess(answer)) {
			// A service interface that is not public (its methods are still the ones the caller called).
			method.trySetAccessible();
		}
		try {
			return method.invoke(answer, argv);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * The adapter's invocation returned normally: the call succeeded, unless the caller is still to read its last
	 * attempt's 2xx body (an {@code InputStream}, a {@code feign.Response} of an event stream), which then ends
	 * the call: a success once it has arrived, a failure if it breaks off or carries an error event
	 * ({@link Settlement#returnedToCaller()}).
	 * @param call the call
	 */
	public void returned(Call call) {
		Settlement body = call.lastBody();
		if (body == null) {
			report(call, CallOutcome.SUCCESS, null, null, false);
		}
		else if (body.returnedToCaller()) {
			call.bodyFollows();
		}
	}

	/**
	 * Tell the observers how a call ended.
	 * @param call the call
	 * @param outcome its outcome
	 * @param failure what the caller got thrown, {@code null} for none
	 * @param described what happened, as Triage describes it, {@code null} when not the upstream's doing
	 * @param alert whether it is alert-worthy
	 */
	public void report(Call call, CallOutcome outcome, RuntimeException failure, UpstreamException described,
			boolean alert) {
		report(call, outcome, failure, described, alert, null);
	}

	/**
	 * Tell the observers how a call ended, and what type the fallback's answer had.
	 * @param call the call
	 * @param outcome its outcome
	 * @param failure what the caller got thrown, {@code null} for none
	 * @param described what happened, as Triage describes it, {@code null} when not the upstream's doing
	 * @param alert whether it is alert-worthy
	 * @param fallbackType the type of the fallback's answer, {@code null} when no fallback answered
	 */
	public void report(Call call, CallOutcome outcome, RuntimeException failure, UpstreamException described,
			boolean alert, String fallbackType) {
		FailureClass failureClass = FailureClass.NONE;
		String code = "none";
		if (described instanceof UpstreamResponseException response) {
			int status = response.response().status();
			failureClass = (status >= 200 && status < 300) ? FailureClass.STREAM_ERROR : failureClass(status);
			code = Integer.toString(status);
		}
		else if (described instanceof UpstreamTransportException transport) {
			failureClass = FailureClass.TRANSPORT;
			code = transport.failure().key();
		}
		else if (described instanceof UpstreamUnavailableException refused) {
			failureClass = FailureClass.REFUSED;
			code = refused.refusal().tag();
		}
		else if (failure != null) {
			failureClass = FailureClass.LOCAL;
			code = "exception";
		}
		this.runtime.observer()
			.onCall(new CallRecord(this.runtime.name(), call.methodKey(), (failure != null) ? call.requestLine() : null,
					outcome, failureClass, code, call.attempts(), alert, Duration.ofNanos(call.elapsedNanos()),
					(described != null) ? described : (failure instanceof UpstreamException upstream) ? upstream : null,
					call.suppressed(), this.runtime.channels().hasAlternatives() ? call.lastChannel() : null,
					fallbackType));
	}

	/**
	 * Return the type of a fallback's answer as the call log shows it: its class's simple name, never its
	 * content.
	 */
	static String fallbackType(Object answer, Method method) {
		if (answer == null) {
			return (method != null && method.getReturnType() == void.class) ? "void" : "null";
		}
		Class<?> type = answer.getClass();
		String simple = type.getSimpleName();
		if (simple.isEmpty()) {
			String name = type.getName();
			simple = name.substring(name.lastIndexOf('.') + 1);
		}
		return simple;
	}

	/**
	 * Return the code of a failure: its status, or its transport failure key.
	 */
	static String code(UpstreamException failure) {
		if (failure instanceof UpstreamResponseException response) {
			return Integer.toString(response.response().status());
		}
		if (failure instanceof UpstreamTransportException transport) {
			return transport.failure().key();
		}
		if (failure instanceof UpstreamUnavailableException refused) {
			return refused.refusal().tag();
		}
		return "none";
	}

	/**
	 * Return the bounded class of a status: its class when IANA-registered, else {@code nonstandard}.
	 * @param status the status
	 * @return the class
	 */
	public static FailureClass failureClass(int status) {
		return FailureClass.ofStatus(status, HttpStatuses.isRegistered(status));
	}

}
