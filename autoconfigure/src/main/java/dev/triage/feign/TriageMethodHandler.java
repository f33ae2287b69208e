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

import java.lang.reflect.Method;

import dev.triage.CallOutcome;
import dev.triage.TriageFallback;
import dev.triage.UpstreamException;
import dev.triage.UpstreamTransportException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.engine.Call;
import dev.triage.engine.Engine;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.RefusedException;
import dev.triage.engine.TransportFailureException;
import feign.InvocationHandlerFactory.MethodHandler;
import feign.RetryableException;

/**
 * One managed Feign call: opens the engine's {@link Call} that the client, decoder and retryer share, and when
 * the call finally fails lets the engine hand what actually happened to the fallback.
 */
final class TriageMethodHandler implements MethodHandler {

	private final MethodHandler delegate;

	private final ManagedClient client;

	/** The fallback of the client interface the call is made through, {@code null} for none. */
	private final TriageFallback<?> fallback;

	private final Method method;

	private final String methodKey;

	TriageMethodHandler(MethodHandler delegate, ManagedClient client, TriageFallback<?> fallback, Method method,
			String methodKey) {
		this.delegate = delegate;
		this.client = client;
		this.fallback = fallback;
		this.method = method;
		this.methodKey = methodKey;
	}

	@Override
	public Object invoke(Object[] argv) throws Throwable {
		Engine engine = this.client.engine();
		Call call = Call.open(engine, this.methodKey);
		try {
			UpstreamUnavailableException refused = engine.refuseEarly(this.methodKey);
			if (refused != null) {
				return engine.fail(call, refused, refused, this.fallback, this.method, argv);
			}
			Object result;
			try {
				result = this.delegate.invoke(argv);
			}
			catch (RuntimeException thrown) {
				return ended(engine, call, thrown, argv);
			}
			engine.returned(call);
			return result;
		}
		finally {
			call.close();
		}
	}

	/**
	 * The call threw: report it, and hand what actually happened to the fallback.
	 */
	private Object ended(Engine engine, Call call, RuntimeException thrown, Object[] argv) throws Throwable {
		UpstreamException typed = typed(thrown, call);
		if (typed != null) {
			// An answer the application's own error decoder made an exception of: the caller gets that.
			RuntimeException decoded = call.decodedByApplication(typed);
			return engine.fail(call, typed, (decoded != null) ? decoded : typed, this.fallback, this.method, argv);
		}
		UpstreamException answered = call.lastAnswer();
		if (answered != null) {
			// The user's own error decoder turned a real answer into an exception of its choice: the caller gets
			// that exception, but metrics, log and fallback see what the upstream really said.
			return engine.fail(call, answered, thrown, this.fallback, this.method, argv);
		}
		// Not the upstream's doing as far as Triage can tell (encoding, decoding a 2xx body): still a call the
		// caller saw fail, so it is counted, never as a success.
		engine.report(call, CallOutcome.FAILURE, thrown, null, true);
		throw thrown;
	}

	/**
	 * Return Triage's typed exception for what a call ended in, whatever retryer the client has: Triage's own
	 * signals (a retryable answer, a refusal, a transport failure) never reach a caller as such.
	 */
	private UpstreamException typed(RuntimeException thrown, Call call) {
		if (thrown instanceof UpstreamException upstream) {
			return upstream;
		}
		if (!(thrown instanceof RetryableException) && Engine.upstreamCause(thrown) != null) {
			// An error event inside a 2xx stream, thrown while the decoder read it.
			return Engine.upstreamCause(thrown);
		}
		if (thrown instanceof TriageRetryableException retryable) {
			return retryable.failure();
		}
		if (thrown instanceof RetryableException retryable) {
			if (retryable.getCause() instanceof RefusedException refused) {
				UpstreamException last = call.lastAnswer();
				return (last != null) ? last : new UpstreamUnavailableException(this.client.name(),
						this.methodKey, refused.refusal(), refused.getMessage(), call.attempts());
			}
			if (retryable.getCause() instanceof java.io.IOException) {
				return call.lastAnswer();
			}
		}
		// A 2xx body that broke off while Feign read it within the call (a feign.Response it buffers): Feign wraps
		// Triage's read failure in its own FeignException; the caller gets the attempt's transport failure.
		if (Engine.cause(thrown.getCause(), TransportFailureException.class) != null
				&& call.lastAnswer() instanceof UpstreamTransportException failure) {
			return failure;
		}
		return null;
	}

}
