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

import dev.triage.OriginalResponse;
import dev.triage.UpstreamException;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;
import feign.Request;

/**
 * The state of one managed call, shared by the client, error decoder and retryer that Feign runs on the
 * calling thread. Opened and closed by {@link TriageMethodHandler}; a nested call (a fallback that calls
 * another client) gets its own context and restores the outer one when done.
 */
final class CallContext {

	private static final ThreadLocal<CallContext> CURRENT = new ThreadLocal<>();

	private final ClientRuntime runtime;

	private final String methodKey;

	private final long startNanos = System.nanoTime();

	private final CallContext outer;

	private int tries;

	private int attempts;

	private Request lastRequest;

	private UpstreamException lastFailure;

	private Rule lastRule;

	private RetryDecision.Suppression suppressed;

	private int channel;

	private boolean poisoned;

	private final AttemptAbort abort = new AttemptAbort();

	private java.util.function.Supplier<? extends UpstreamException> lastAnswer;

	private String lastChannel = OriginalResponse.PRIMARY;

	private CallContext(ClientRuntime runtime, String methodKey, CallContext outer) {
		this.runtime = runtime;
		this.methodKey = methodKey;
		this.outer = outer;
	}

	static CallContext open(ClientRuntime runtime, String methodKey) {
		CallContext context = new CallContext(runtime, methodKey, CURRENT.get());
		CURRENT.set(context);
		return context;
	}

	/**
	 * Return the context of the call running on this thread for a client.
	 * @param runtime the client asking
	 * @return the context, or {@code null} when no managed call of that client is running
	 */
	static CallContext current(ClientRuntime runtime) {
		CallContext context = CURRENT.get();
		return (context != null && context.runtime == runtime) ? context : null;
	}

	/**
	 * Return the context of the innermost managed call running on this thread, whatever its client.
	 */
	static CallContext innermost() {
		return CURRENT.get();
	}

	AttemptAbort abort() {
		return this.abort;
	}

	void close() {
		this.abort.cancel();
		// Set back rather than removed when there is no outer call: the thread keeps its (empty) slot, and the
		// next call on it does not allocate a new one.
		CURRENT.set(this.outer);
	}

	int attemptStarted(Request request, String channelName) {
		this.lastRequest = request;
		this.lastChannel = channelName;
		this.tries++;
		return ++this.attempts;
	}

	/**
	 * Return the position of the channel the next (or current) attempt goes to.
	 */
	int channel() {
		return this.channel;
	}

	void channel(int index) {
		this.channel = index;
	}

	/**
	 * Return whether the request turned out to be poison: no further attempt.
	 */
	boolean poisoned() {
		return this.poisoned;
	}

	void poisoned(boolean poisoned) {
		this.poisoned = poisoned;
	}

	/**
	 * Return the name of the channel of the last attempt.
	 */
	String lastChannel() {
		return this.lastChannel;
	}

	/** The last attempt never got a connection, so it did not reach the wire; it still counts as a try. */
	void attemptNotSent() {
		this.attempts--;
	}

	/**
	 * Return the attempts that reached the wire.
	 */
	int attempts() {
		return this.attempts;
	}

	/**
	 * Return the attempts made, whether or not they reached the wire: what {@code max-attempts} counts.
	 */
	int tries() {
		return this.tries;
	}

	String methodKey() {
		return this.methodKey;
	}

	/**
	 * Return the sanitized request line of the last attempt, {@code null} when none was made. Computed on
	 * demand: only failed calls need it.
	 */
	String requestLine() {
		return (this.lastRequest != null) ? Requests.requestLine(this.lastRequest) : null;
	}

	long elapsedNanos() {
		return System.nanoTime() - this.startNanos;
	}

	void failed(UpstreamException failure, Rule rule) {
		this.lastFailure = failure;
		this.lastRule = rule;
	}

	void suppressed(RetryDecision.Suppression reason) {
		this.suppressed = reason;
	}

	/**
	 * Return why the last retry the rule allowed was not made, {@code null} if none was suppressed.
	 */
	RetryDecision.Suppression suppressed() {
		return this.suppressed;
	}

	/**
	 * Remember what the last attempt really ended in (a non-2xx answer or a transport failure), built only if
	 * asked for.
	 */
	void answered(java.util.function.Supplier<? extends UpstreamException> answer, Rule rule) {
		this.lastAnswer = answer;
		this.lastRule = rule;
	}

	/**
	 * Return what the last attempt really ended in, {@code null} when it succeeded or nothing was attempted.
	 */
	UpstreamException lastAnswer() {
		return (this.lastAnswer != null) ? this.lastAnswer.get() : null;
	}

	UpstreamException lastFailure() {
		return this.lastFailure;
	}

	Rule lastRule() {
		return this.lastRule;
	}

}
