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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;

import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import dev.triage.Refusal;
import dev.triage.TriageFallback;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.policy.Rule;
import feign.InvocationHandlerFactory.MethodHandler;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.policy.BreakerOutcome;
import feign.RetryableException;

/**
 * One managed call: opens the {@link CallContext} that the client, decoder and retryer share, and when the
 * call finally fails hands what actually happened to the fallback, {@code (exception, null)} or
 * {@code (null, response)}. The fallback's answer is reported as {@code fallback}, never as a success.
 */
final class TriageMethodHandler implements MethodHandler {

	private final MethodHandler delegate;

	private final ClientRuntime runtime;

	private final Method method;

	private final String methodKey;

	TriageMethodHandler(MethodHandler delegate, ClientRuntime runtime, Method method, String methodKey) {
		this.delegate = delegate;
		this.runtime = runtime;
		this.method = method;
		this.methodKey = methodKey;
	}

	@Override
	public Object invoke(Object[] argv) throws Throwable {
		CallContext call = CallContext.open(this.runtime, this.methodKey);
		try {
			UpstreamUnavailableException refused = refusedBeforeFeign();
			if (refused != null) {
				return failed(call, refused, refused, argv);
			}
			Object result;
			try {
				result = this.delegate.invoke(argv);
			}
			catch (RuntimeException thrown) {
				return ended(call, thrown, argv);
			}
			report(call, CallOutcome.SUCCESS, null, null, false);
			return result;
		}
		finally {
			call.close();
		}
	}

	/**
	 * The call threw: report it, and hand what actually happened to the fallback.
	 */
	private Object ended(CallContext call, RuntimeException thrown, Object[] argv) throws Throwable {
		UpstreamException typed = typed(thrown, call);
		if (typed != null) {
			return failed(call, typed, typed, argv);
		}
		UpstreamException answered = call.lastAnswer();
		if (answered != null) {
			// The user's own error decoder turned a real answer into an exception of its choice: the caller gets
			// that exception, but metrics, log and fallback see what the upstream really said.
			return failed(call, answered, thrown, argv);
		}
		// Not the upstream's doing as far as Triage can tell (encoding, decoding a 2xx body): still a call the
		// caller saw fail, so it is counted, never as a success.
		report(call, CallOutcome.FAILURE, thrown, null, true);
		throw thrown;
	}

	/**
	 * While every channel's breaker is open, refuse at once, before Feign builds a request, an exception with a
	 * stack trace and a retry sequence for it: refusing must stay cheap while an upstream is down. An open
	 * breaker whose wait is over is asked for a permit (that is what moves it to half-open), and the permit is
	 * given back: the attempt itself takes it again.
	 */
	private UpstreamUnavailableException refusedBeforeFeign() {
		Channels channels = this.runtime.channels();
		for (Channel channel : channels.all()) {
			if (!channel.breaker().isOpen()) {
				return null;
			}
		}
		for (Channel channel : channels.all()) {
			if (channel.breaker().tryAcquire()) {
				channel.breaker().record(BreakerOutcome.IGNORE, 0, null);
				return null;
			}
		}
		this.runtime.observer().onRefusal(this.runtime.name(), Refusal.BREAKER_OPEN);
		return new UpstreamUnavailableException(this.runtime.name(), this.methodKey, Refusal.BREAKER_OPEN,
				"circuit breaker of '" + this.runtime.name() + "' is " + channels.primary().breaker().state(), 0);
	}

	/**
	 * Return Triage's typed exception for what a call ended in, whatever retryer the client has: Triage's own
	 * signals (a retryable answer, a refusal, a transport failure) never reach a caller as such.
	 */
	private UpstreamException typed(RuntimeException thrown, CallContext call) {
		if (thrown instanceof UpstreamException upstream) {
			return upstream;
		}
		if (thrown instanceof TriageRetryableException retryable) {
			return retryable.failure();
		}
		if (thrown instanceof RetryableException retryable) {
			if (retryable.getCause() instanceof RefusedException refused) {
				UpstreamException last = call.lastAnswer();
				return (last != null) ? last : new UpstreamUnavailableException(this.runtime.name(), this.methodKey,
						refused.refusal(), refused.getMessage(), call.attempts());
			}
			if (retryable.getCause() instanceof java.io.IOException) {
				return call.lastAnswer();
			}
		}
		return null;
	}

	private Object failed(CallContext call, UpstreamException failure, RuntimeException toThrow, Object[] argv)
			throws Throwable {
		Rule rule = (failure instanceof UpstreamUnavailableException) ? null : call.lastRule();
		TriageFallback<?> fallback = this.runtime.fallback();
		// A refusal has no rule: an open breaker is always worth an alert; a client holding itself back
		// (pause, throttle, rate limit, poison) is working as designed, and its meters show it.
		boolean alert = (rule != null) ? rule.alert()
				: !(failure instanceof UpstreamUnavailableException refused) || refused.refusal() == Refusal.BREAKER_OPEN;
		CallOutcome failed = (failure instanceof UpstreamUnavailableException) ? CallOutcome.SHORT_CIRCUITED
				: CallOutcome.FAILURE;
		if (fallback == null || (rule != null && !rule.fallback())) {
			report(call, failed, toThrow, failure, alert);
			throw toThrow;
		}
		Object answer;
		try {
			Object target = (failure instanceof UpstreamResponseException response)
					? fallback.create(null, response.response()) : fallback.create(failure, null);
			answer = invokeFallback(target, argv);
		}
		catch (Throwable declined) {
			// The fallback chose to fail: the call failed, whatever it threw.
			report(call, failed, toThrow, failure, alert);
			throw declined;
		}
		report(call, CallOutcome.FALLBACK, toThrow, failure, alert);
		return answer;
	}

	private Object invokeFallback(Object answer, Object[] argv) throws Throwable {
		if (answer == null) {
			throw new IllegalStateException("TriageFallback for '" + this.runtime.name() + "' returned null");
		}
		try {
			return this.method.invoke(answer, argv);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private void report(CallContext call, CallOutcome outcome, RuntimeException failure, UpstreamException described,
			boolean alert) {
		FailureClass failureClass = FailureClass.NONE;
		String code = "none";
		if (described instanceof UpstreamResponseException response) {
			int status = response.response().status();
			failureClass = TriageClient.failureClass(status);
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
			.onCall(new CallRecord(this.runtime.name(), this.methodKey, (failure != null) ? call.requestLine() : null,
					outcome, failureClass, code, call.attempts(), alert, Duration.ofNanos(call.elapsedNanos()),
					(described != null) ? described : (failure instanceof UpstreamException upstream) ? upstream : null,
					call.suppressed(), this.runtime.channels().hasAlternatives() ? call.lastChannel() : null));
	}

}
