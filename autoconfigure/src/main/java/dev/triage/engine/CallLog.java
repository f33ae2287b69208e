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

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

import dev.triage.CallObserver;
import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.RetryRecord;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.policy.RetryDecision;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The call log (logger {@code dev.triage.calls}): a line per failed or degraded call with client, method key,
 * request line (query values masked), channel, class, code, the error type, the exception, the start of the
 * sanitized message ({@link ErrorMessages}), attempts, what the fallback returned (its type, never its content),
 * outcome, why a retry was suppressed, total time. No header value is ever written.
 * <ul>
 * <li>An alert-worthy failure: a WARN line per call.</li>
 * <li>An expected failure ({@code alert: false}, e.g. a 404): an INFO line at most once per client and code
 * every window (10 seconds by default), with {@code count=} the calls of that client and code since the
 * previous line, this one included; calls whose retry was suppressed (a 429 the retry budget or throttling
 * did not let retry) count apart, per reason, so that each reason gets its own line.</li>
 * <li>A refusal (open breaker, pause, throttle, rate limit, poison): likewise at most once per client and reason
 * every window with the count, WARN for an open breaker and INFO otherwise. The breaker's state transitions are
 * logged once each by {@link dev.triage.breaker.UpstreamBreakers}: an outage is one event, not a line per
 * refused call.</li>
 * </ul>
 * The meters count every call whether or not it is logged. Deciding that a call is not logged costs a map
 * look-up, two atomic operations and a clock read: no lock, no allocation. A line is only built when it is
 * written. Each retried attempt gets an INFO line on {@code dev.triage.attempts}.
 */
public final class CallLog implements CallObserver {

	/** The window of the rate-limited lines. */
	public static final Duration WINDOW = Duration.ofSeconds(10);

	private static final Log logger = LogFactory.getLog("dev.triage.calls");

	private static final Log attemptLogger = LogFactory.getLog("dev.triage.attempts");

	private static final Refusal[] REFUSALS = Refusal.values();

	private static final RetryDecision.Suppression[] SUPPRESSIONS = RetryDecision.Suppression.values();

	private final long windowNanos;

	private final LongSupplier nanoTime;

	private final ConcurrentHashMap<String, Windows> windows = new ConcurrentHashMap<>();

	/**
	 * Create a call log with the default window.
	 */
	public CallLog() {
		this(WINDOW, System::nanoTime);
	}

	/**
	 * Create a call log.
	 * @param window at most one line per client and code (or refusal reason) in this window; zero logs every
	 * call
	 * @param nanoTime the nano time source
	 */
	public CallLog(Duration window, LongSupplier nanoTime) {
		this.windowNanos = window.toNanos();
		this.nanoTime = nanoTime;
	}

	@Override
	public void onPoison(PoisonRequestEvent event) {
		logger.warn("triage poison client=" + event.client() + " method=" + field(event.methodKey()) + " request=\""
				+ event.httpMethod() + " " + event.url() + "\" fingerprint=" + event.fingerprint() + " failures="
				+ event.failures() + " status=" + event.lastResponse().status());
	}

	@Override
	public void onRetry(RetryRecord retry) {
		if (!attemptLogger.isInfoEnabled()) {
			return;
		}
		// A failover past the rule's max-attempts (one attempt per remaining channel) is not "attempt 2 of 1".
		String of = (retry.attempt() < retry.maxAttempts()) ? " of " + retry.maxAttempts() : "";
		String beyond = (retry.attempt() < retry.maxAttempts()) ? ""
				: " (max-attempts " + retry.maxAttempts() + " used up: one attempt per remaining channel)";
		attemptLogger.info("triage attempt client=" + retry.client() + " method=" + field(retry.methodKey()) + ": attempt "
				+ retry.attempt() + of + " failed (" + retry.code() + "), retrying "
				+ ((retry.channel() != null) ? "on " + retry.channel() + " " : "") + "in " + delay(retry.delay())
				+ beyond);
	}

	@Override
	public void onCall(CallRecord call) {
		if (call.outcome() == CallOutcome.SUCCESS) {
			return;
		}
		boolean refused = call.failureClass() == FailureClass.REFUSED;
		if (call.alert() && !refused) {
			if (logger.isWarnEnabled()) {
				logger.warn(line(call, 0));
			}
			return;
		}
		boolean warn = call.alert();
		if (!(warn ? logger.isWarnEnabled() : logger.isInfoEnabled())) {
			return;
		}
		long count = admit(call, refused);
		if (count == 0) {
			return;
		}
		if (warn) {
			logger.warn(line(call, count));
		}
		else {
			logger.info(line(call, count));
		}
	}

	/**
	 * Count a rate-limited call and return whether its line is written: the count since the previous line, this
	 * call included, or zero when not written.
	 */
	private long admit(CallRecord call, boolean refused) {
		if (this.windowNanos <= 0) {
			return 1;
		}
		Windows client = this.windows.get(call.client());
		if (client == null) {
			client = this.windows.computeIfAbsent(call.client(), (name) -> new Windows(this.nanoTime.getAsLong()));
		}
		Window window;
		if (refused && call.failure() instanceof UpstreamUnavailableException unavailable) {
			window = client.refusals[unavailable.refusal().ordinal()];
		}
		else {
			CodeWindow code = client.codes.get(call.code());
			if (code == null) {
				long now = this.nanoTime.getAsLong();
				code = client.codes.computeIfAbsent(call.code(), (key) -> new CodeWindow(now));
			}
			// Why a retry was not made is said at least once a window, with its own count.
			window = (call.retrySuppressed() != null) ? code.suppressed(call.retrySuppressed(), this.nanoTime) : code;
		}
		return window.admit(this.nanoTime.getAsLong(), this.windowNanos);
	}

	private static String line(CallRecord call, long count) {
		StringBuilder line = new StringBuilder(256);
		line.append("triage call client=").append(call.client()).append(" method=").append(field(call.methodKey()));
		line.append(" request=\"").append((call.requestLine() != null) ? call.requestLine() : "-").append('"');
		if (call.channel() != null) {
			line.append(" channel=").append(call.channel());
		}
		line.append(" class=").append(call.failureClass().tag()).append(" code=").append(call.code());
		UpstreamException failure = call.failure();
		if (failure instanceof UpstreamResponseException response && response.response().errorType() != null) {
			String type = ErrorMessages.sanitize(response.response().errorType());
			// Quoted when it holds a space: a body's text must not add fields to the line.
			line.append(" error_type=").append(field(type));
		}
		if (failure instanceof UpstreamTransportException && failure.getCause() != null) {
			line.append(" exception=").append(failure.getCause().getClass().getSimpleName());
		}
		String message = ErrorMessages.of(failure);
		if (message != null) {
			line.append(" message=\"").append(message).append('"');
		}
		line.append(" attempts=").append(call.attempts());
		line.append(" fallback=")
			.append((call.outcome() != CallOutcome.FALLBACK) ? "none"
					: (call.fallbackType() != null) ? call.fallbackType() : "answered");
		line.append(" outcome=").append(call.outcome().tag());
		if (call.retrySuppressed() != null) {
			line.append(" retry_suppressed=").append(call.retrySuppressed().tag());
		}
		line.append(" elapsed=").append(call.elapsed().toMillis()).append("ms");
		if (count > 0) {
			line.append(" count=").append(count);
		}
		return line.toString();
	}

	/**
	 * A field's value, quoted when it holds a space, an {@code =} or a quote (a method key such as
	 * {@code GET reports}, an error type from a body such as {@code password=x}), so that it never reads as more
	 * fields of the line, for people or for a logfmt parser; a quote inside becomes {@code '}.
	 */
	static String field(String value) {
		if (value == null || (value.indexOf(' ') < 0 && value.indexOf('=') < 0 && value.indexOf('"') < 0)) {
			return value;
		}
		return '"' + value.replace('"', '\'') + '"';
	}

	static String delay(Duration delay) {
		long millis = delay.toMillis();
		if (millis < 1000) {
			return millis + "ms";
		}
		if (millis % 1000 == 0) {
			return (millis / 1000) + "s";
		}
		return (millis / 1000) + "." + ((millis % 1000) / 100) + "s";
	}

	/**
	 * The windows of one client: one per refusal reason, one per code.
	 */
	private static final class Windows {

		private final Window[] refusals = new Window[REFUSALS.length];

		private final ConcurrentHashMap<String, CodeWindow> codes = new ConcurrentHashMap<>();

		Windows(long now) {
			for (int i = 0; i < this.refusals.length; i++) {
				this.refusals[i] = new Window(now);
			}
		}

	}

	/**
	 * One rate-limited line: the calls since the last line, and when the next line may be written.
	 */
	private static class Window {

		private final AtomicLong count = new AtomicLong();

		private final AtomicLong nextAt;

		Window(long now) {
			this.nextAt = new AtomicLong(now);
		}

		long admit(long now, long windowNanos) {
			this.count.incrementAndGet();
			long next = this.nextAt.get();
			if (now - next < 0 || !this.nextAt.compareAndSet(next, now + windowNanos)) {
				return 0;
			}
			return Math.max(1, this.count.getAndSet(0));
		}

	}

	/**
	 * The line of one code, and those of its calls whose retry was suppressed, one per reason (created when first
	 * needed).
	 */
	private static final class CodeWindow extends Window {

		private final AtomicReferenceArray<Window> suppressed = new AtomicReferenceArray<>(SUPPRESSIONS.length);

		CodeWindow(long now) {
			super(now);
		}

		Window suppressed(RetryDecision.Suppression reason, LongSupplier nanoTime) {
			Window window = this.suppressed.get(reason.ordinal());
			if (window == null) {
				this.suppressed.compareAndSet(reason.ordinal(), null, new Window(nanoTime.getAsLong()));
				window = this.suppressed.get(reason.ordinal());
			}
			return window;
		}

	}

}
