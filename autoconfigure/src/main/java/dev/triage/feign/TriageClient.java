package dev.triage.feign;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.triage.TransportFailure;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.HttpStatuses;
import dev.triage.policy.PolicyKey;
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
		if (!this.runtime.breaker().tryAcquire()) {
			throw new BreakerOpenException(this.runtime.name(), this.runtime.breaker().state());
		}
		CallContext call = CallContext.current(this.runtime);
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
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, "2xx", null, duration));
			return response;
		}
		if (returnsRawResponse(request)) {
			// The caller asked for the feign.Response itself: Feign hands it over without decoding errors, so
			// the body is left whole for the caller and the status alone decides how the breaker counts it.
			Rule rule = this.runtime.policy().forStatus(status, null);
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
		Response captured = response.toBuilder().body(body).build();
		record(rule.breaker(), duration, () -> new UpstreamResponseException(
				ResponseCapture.toOriginal(this.runtime, methodKey, captured, body, attempt, Duration.ofNanos(duration))));
		this.runtime.observer()
			.onAttempt(new AttemptOutcome(this.runtime.name(), status, null, failureClass(status), rule, duration));
		return captured;
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
