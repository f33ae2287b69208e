package dev.triage.feign;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.triage.Refusal;
import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.HttpStatuses;
import dev.triage.policy.PolicyKey;
import dev.triage.overload.Overload;
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
		admit();
		Overload overload = this.runtime.overload();
		if (call == null || call.tries() == 0) {
			overload.budget().onFirstAttempt();
		}
		int attempt = (call != null) ? call.attemptStarted(request) : 1;
		String methodKey = (call != null) ? call.methodKey() : "";
		Request.Options effective = withinDeadline(options, call);
		long start = System.nanoTime();
		Response response;
		try {
			response = this.delegate.execute(request, effective);
		}
		catch (IOException ex) {
			long duration = System.nanoTime() - start;
			TransportFailure failure = TransportFailures.classify(ex);
			boolean sent = failure != TransportFailure.POOL_TIMEOUT;
			if (!sent && call != null) {
				call.attemptNotSent();
			}
			int attemptsSent = sent ? attempt : attempt - 1;
			Duration timeout = TransportFailures.configuredTimeout(failure, effective, this.runtime.poolTimeout());
			Rule rule = this.runtime.policy().forTransport(failure);
			TransportFailureException classified = new TransportFailureException(failure, timeout, ex);
			record(rule.breaker(), duration, () -> new UpstreamTransportException(this.runtime.name(), methodKey,
					Requests.requestLine(request), failure, timeout, attemptsSent, ex));
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), 0, failure, "transport", rule, duration));
			throw classified;
		}
		catch (RuntimeException | Error ex) {
			this.runtime.breaker().record(BreakerOutcome.IGNORE, System.nanoTime() - start, ex);
			throw ex;
		}
		long duration = System.nanoTime() - start;
		int status = response.status();
		if (status >= 200 && status < 300) {
			this.runtime.breaker().record(BreakerOutcome.SUCCESS, duration, null);
			overload.throttle().onAccepted();
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, "2xx", null, duration));
			return response;
		}
		if (returnsRawResponse(request)) {
			// The caller asked for the feign.Response itself: Feign hands it over without decoding errors, so
			// the body is left whole for the caller and the status alone decides how the breaker counts it.
			Rule rule = this.runtime.policy().forStatus(status, null);
			protect(rule, response);
			record(rule.breaker(), duration, () -> new UpstreamResponseException(ResponseCapture.toOriginal(this.runtime,
					methodKey, response, new CapturedBody(new byte[0], false, null), attempt, Duration.ofNanos(duration))));
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, failureClass(status), rule, duration));
			return response;
		}
		CapturedBody body = ResponseCapture.capture(response, this.runtime);
		Rule rule = this.runtime.policy().forStatus(status, body.errorType());
		PolicyKey key = this.runtime.policy().keyFor(status);
		if (key.kind() == PolicyKey.Kind.UNKNOWN_STATUS && this.runtime.firstSighting(status)) {
			logger.warn("Triage: client '" + this.runtime.name() + "' received non-standard HTTP status " + status
					+ " for the first time; it is handled by the 'unknown-status' rule");
		}
		protect(rule, response);
		Response captured = response.toBuilder().body(body).build();
		record(rule.breaker(), duration, () -> new UpstreamResponseException(
				ResponseCapture.toOriginal(this.runtime, methodKey, captured, body, attempt, Duration.ofNanos(duration))));
		this.runtime.observer()
			.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, failureClass(status), rule, duration));
		return captured;
	}

	/**
	 * Ask, in order, whether the upstream is paused, its breaker permits, throttling lets the attempt through
	 * and the rate limiter has a permit; a refusal reaches no wire and gives back the breaker's permit.
	 */
	private void admit() throws RefusedException {
		Overload overload = this.runtime.overload();
		if (overload.pause().isPaused()) {
			throw refuse(Refusal.PAUSED, "upstream '" + this.runtime.name() + "' asked to be paused until "
					+ overload.pause().until());
		}
		if (!this.runtime.breaker().tryAcquire()) {
			throw refuse(Refusal.BREAKER_OPEN,
					"circuit breaker '" + this.runtime.name() + "' is " + this.runtime.breaker().state());
		}
		if (!overload.throttle().admit()) {
			this.runtime.breaker().record(BreakerOutcome.IGNORE, 0, null);
			throw refuse(Refusal.THROTTLED, "the upstream has been rejecting this client's load");
		}
		if (!overload.rateLimit().acquire()) {
			this.runtime.breaker().record(BreakerOutcome.IGNORE, 0, null);
			throw refuse(Refusal.RATE_LIMITED, "rate limiter '" + overload.rateLimit().name() + "' has no permit");
		}
	}

	private RefusedException refuse(Refusal refusal, String detail) {
		this.runtime.observer().onRefusal(this.runtime.name(), refusal);
		return new RefusedException(refusal, detail);
	}

	/**
	 * What an answer tells the overload protection: an answer that is not a rejection for load counts as
	 * accepted by the throttle, and a valid {@code Retry-After} on a pausing rule pauses the upstream.
	 */
	private void protect(Rule rule, Response response) {
		Overload overload = this.runtime.overload();
		if (!rule.overload()) {
			overload.throttle().onAccepted();
		}
		if (rule.pause()) {
			Optional<Duration> asked = RetryAfter.parse(Requests.firstHeader(response.headers(), "Retry-After"),
					this.runtime.clock());
			if (asked.isPresent() && !RetryAfter.isBeyondLimit(asked.get())
					&& (rule.retryAfterMax() == null || asked.get().compareTo(rule.retryAfterMax()) <= 0)) {
				overload.pause().pauseFor(asked.get());
			}
		}
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

	private void record(BreakerOutcome outcome, long duration, Supplier<Throwable> failure) {
		this.runtime.breaker().record(outcome, duration, (outcome == BreakerOutcome.FAILURE) ? failure.get() : null);
	}

	/**
	 * Return a bounded label for a status: its class when IANA-registered, else {@code nonstandard}.
	 */
	static String failureClass(int status) {
		return HttpStatuses.isRegistered(status) ? (status / 100) + "xx" : "nonstandard";
	}

}
