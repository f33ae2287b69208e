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
import java.util.function.Supplier;

import dev.triage.OriginalResponse;
import dev.triage.Refusal;
import dev.triage.UpstreamException;
import dev.triage.channel.Channel;
import dev.triage.policy.RetryDecision;
import dev.triage.policy.Rule;

/**
 * The state of one managed call, from its first attempt to its end, whatever kind of client makes it. Opened by
 * the adapter where the caller's call starts, closed when it ends; the adapter's pieces that run on the calling
 * thread for each attempt find it with {@link #current}. A nested call (a fallback that calls another client)
 * gets its own and the outer one is back when it ends.
 */
public final class Call {

	/**
	 * Each thread's slot for its current call: the thread-local is read once when a call opens and not written
	 * again (setting a thread-local walks, and on a busy thread cleans, the thread's whole map).
	 */
	private static final ThreadLocal<Slot> CURRENT = ThreadLocal.withInitial(Slot::new);

	private final Slot slot;

	private final Engine engine;

	private final ClientRuntime runtime;

	private final String methodKey;

	private final long startNanos = System.nanoTime();

	private final Call outer;

	private final AttemptAbort abort = new AttemptAbort();

	private int tries;

	private int attempts;

	private String lastMethod;

	private String lastUrl;

	private UpstreamException lastFailure;

	private Rule lastRule;

	private RetryDecision.Suppression suppressed;

	private int channel;

	/** The channels (by position, the first 64) this call's own answers paused. */
	private long pausedChannels;

	private boolean poisoned;

	private Supplier<? extends UpstreamException> lastAnswer;

	/** An answer the application's own error decoder made an exception of ({@link #decodedByApplication}). */
	private UpstreamException decodedAnswer;

	private RuntimeException decodedAs;

	private String lastChannel = OriginalResponse.PRIMARY;

	private boolean idempotent;

	private Duration clientConnectTimeout;

	private Duration clientReadTimeout;

	private Duration clientPoolTimeout;

	private boolean guardBody;

	private boolean exchangeExpected;

	/** The attempt's exchange, as the HTTP client started it; {@code null} when the client does not say. */
	private Object attemptExchange;

	/** Whether the HTTP client said it sends a request of the current attempt. */
	private boolean attemptSent;

	/** Whether the current attempt's request names no host to send it to. */
	private boolean attemptWithoutHost;

	/** Whether a load balancer in front of the HTTP client handed the current attempt on to it. */
	private boolean handedOn;

	private BodyGuard bodyGuard;

	/** The last attempt's 2xx body as the adapter handed it on, to be read after the attempt. */
	private Engine.Settlement lastBody;

	/** Whether the caller is still to read the last attempt's 2xx body, which ends the call. */
	private boolean bodyFollows;

	private Call(Engine engine, String methodKey, Slot slot) {
		this.engine = engine;
		this.runtime = engine.runtime();
		this.methodKey = methodKey;
		this.slot = slot;
		this.outer = slot.call;
	}

	/**
	 * Open a call of a client on this thread, with the client's settings in force now: the call keeps them to its
	 * last attempt, whatever a reload puts in force meanwhile.
	 * @param client the client
	 * @param methodKey the method key of the call
	 * @return the call, to be closed when it ends
	 */
	public static Call open(ManagedClient client, String methodKey) {
		return open(client.engine(), methodKey);
	}

	/**
	 * Open a call on this thread.
	 * @param engine the engine of the client's settings the call keeps
	 * @param methodKey the method key of the call
	 * @return the call, to be closed when it ends
	 */
	public static Call open(Engine engine, String methodKey) {
		Slot slot = CURRENT.get();
		Call call = new Call(engine, methodKey, slot);
		slot.call = call;
		return call;
	}

	/**
	 * Return the call running on this thread for a client.
	 * @param client the client asking
	 * @return the call, or {@code null} when no managed call of that client is running
	 */
	public static Call current(ManagedClient client) {
		Call call = CURRENT.get().call;
		return (call != null && call.runtime.name().equals(client.name())) ? call : null;
	}

	/**
	 * Return the engine of the settings this call keeps.
	 * @return the engine
	 */
	public Engine engine() {
		return this.engine;
	}

	/**
	 * Return the innermost managed call running on this thread, whatever its client.
	 * @return the call, or {@code null}
	 */
	public static Call innermost() {
		return CURRENT.get().call;
	}

	/**
	 * Return the hard bound of the current attempt.
	 * @return the bound
	 */
	public AttemptAbort abort() {
		return this.abort;
	}

	/**
	 * End the call: the outer call, if any, is current again, and the attempt bound is disarmed, unless the
	 * caller is still to read the last attempt's 2xx body ({@link #bodyFollows()}): then it stays armed until the
	 * body has settled (its end, its failure or its closing disarms it), so that the deadline bounds that read too.
	 */
	public void close() {
		if (!this.bodyFollows) {
			this.abort.cancel();
		}
		this.slot.call = this.outer;
	}

	/**
	 * The caller reads the last attempt's 2xx body after the call (an {@code InputStream}, a {@code feign.Response}
	 * of an event stream, a response of a client used directly): the body ends the call, and {@link #close()}
	 * leaves the attempt bound armed for it.
	 */
	public void bodyFollows() {
		this.bodyFollows = true;
	}

	/**
	 * The adapter hands the current attempt's 2xx body on, guarded by this settlement.
	 * @param settlement how the body ends
	 */
	public void lastBody(Engine.Settlement settlement) {
		this.lastBody = settlement;
	}

	/**
	 * Return the last attempt's 2xx body as the adapter handed it on.
	 * @return its settlement, {@code null} when the last attempt handed no guarded 2xx body on
	 */
	public Engine.Settlement lastBody() {
		return this.lastBody;
	}

	/**
	 * Remember whether the call's request may be repeated, for a retry decided after the adapter's attempt loop
	 * (a 2xx body that broke off while the caller read it).
	 * @param idempotent whether it may be repeated
	 */
	public void idempotent(boolean idempotent) {
		this.idempotent = idempotent;
	}

	/**
	 * Return whether the call's request may be repeated.
	 * @return whether it may be repeated
	 */
	public boolean idempotent() {
		return this.idempotent;
	}

	/**
	 * Remember the timeouts the HTTP client applies to the current attempt, as far as it tells.
	 * @param connect the connect timeout, {@code null} when unknown
	 * @param read the read timeout, {@code null} when unknown
	 */
	public void clientTimeouts(Duration connect, Duration read) {
		this.clientConnectTimeout = connect;
		this.clientReadTimeout = read;
	}

	/**
	 * Return the connect timeout the HTTP client applied to the current attempt.
	 * @return the timeout, {@code null} when unknown
	 */
	public Duration clientConnectTimeout() {
		return this.clientConnectTimeout;
	}

	/**
	 * Return the read timeout the HTTP client applied to the current attempt.
	 * @return the timeout, {@code null} when unknown
	 */
	public Duration clientReadTimeout() {
		return this.clientReadTimeout;
	}

	/**
	 * Remember how long the HTTP client lets the current attempt wait for a pooled connection, as its request
	 * configuration says (an application's own client may wait less or more than Triage's settings say).
	 * @param pool the wait, {@code null} when unknown
	 */
	public void clientPoolTimeout(Duration pool) {
		this.clientPoolTimeout = pool;
	}

	/**
	 * Return how long the HTTP client let the current attempt wait for a pooled connection.
	 * @return the wait, {@code null} when unknown
	 */
	public Duration clientPoolTimeout() {
		return this.clientPoolTimeout;
	}

	/**
	 * The adapter is about to make the attempt's exchange: the next one the HTTP client starts on this thread is
	 * the attempt's (set with its bound). Another exchange made while the call is open (a fallback asking another
	 * service, a client Triage does not manage) is not the attempt's: its bound does not apply to it.
	 */
	public void expectExchange() {
		this.exchangeExpected = true;
		this.clientPoolTimeout = null;
	}

	/**
	 * Return whether the exchange the HTTP client starts now is the attempt's, at most once per attempt.
	 * @return whether it is the attempt's
	 */
	public boolean takeExchange() {
		boolean expected = this.exchangeExpected;
		this.exchangeExpected = false;
		return expected;
	}

	/**
	 * The HTTP client started the attempt's exchange (the one {@link #takeExchange()} said is the attempt's).
	 * @param exchange the exchange
	 */
	public void attemptExchange(Object exchange) {
		this.attemptExchange = exchange;
	}

	/**
	 * The HTTP client is about to send a request of an exchange: when it is the attempt's, a request of the attempt
	 * reaches the wire (every hop of a redirect it follows comes here).
	 * @param exchange the exchange
	 */
	public void sending(Object exchange) {
		if (exchange == this.attemptExchange && exchange != null) {
			this.attemptSent = true;
		}
	}

	/**
	 * The HTTP client is about to send a request of an exchange, after waiting for a pooled connection and
	 * connecting: when it is the attempt's first and the breaker of the attempt's channel opened meanwhile, the
	 * request must not be sent (SPEC §6: an open breaker lets nothing reach the wire).
	 * @param exchange the exchange
	 * @return the refusal, {@code null} when the request may be sent
	 */
	RefusedException breakerOpenedBeforeSending(Object exchange) {
		if (exchange != this.attemptExchange || exchange == null || this.attemptSent) {
			return null;
		}
		Channel channel = this.engine.runtime().channels().get(this.channel);
		if (!channel.breaker().isOpen()) {
			return null;
		}
		return new RefusedException(Refusal.BREAKER_OPEN,
				"circuit breaker of '" + Protections.upstreamName(this.engine.runtime().name(), channel)
						+ "' opened while the attempt waited for a connection: nothing was sent");
	}

	/**
	 * Return whether the HTTP client said it sent a request of the current attempt: a failure to connect after that
	 * (a redirect followed to a closed port) ends an attempt whose first request reached the wire.
	 * @return whether it said so
	 */
	boolean attemptSent() {
		return this.attemptSent;
	}

	/**
	 * Say whether the adapter can take the next exchange's 2xx body guarded by the HTTP client itself (a
	 * {@link BodyGuard}); asking for it forgets the previous attempt's guard.
	 * @param wanted whether the adapter takes it
	 */
	public void guardBody(boolean wanted) {
		this.guardBody = wanted;
		if (wanted) {
			this.bodyGuard = null;
		}
	}

	/**
	 * Return whether the adapter takes the current exchange's 2xx body guarded by the HTTP client.
	 */
	boolean guardsBody() {
		return this.guardBody;
	}

	/**
	 * The HTTP client guards the current exchange's 2xx body: only one exchange per attempt.
	 */
	void bodyGuarded(BodyGuard guard) {
		this.bodyGuard = guard;
		this.guardBody = false;
	}

	/**
	 * Return the guard of the current attempt's 2xx body, set by the HTTP client.
	 * @return the guard, {@code null} when the HTTP client did not guard it
	 */
	public BodyGuard bodyGuard() {
		return this.bodyGuard;
	}

	int attemptStarted(String method, String url, String channelName) {
		this.lastMethod = method;
		this.lastUrl = url;
		this.lastChannel = channelName;
		this.attemptExchange = null;
		this.attemptSent = false;
		this.attemptWithoutHost = false;
		this.lastBody = null;
		this.tries++;
		return ++this.attempts;
	}

	/**
	 * Return the position of the channel the next (or current) attempt goes to.
	 */
	int channel() {
		return this.channel;
	}

	/**
	 * Return whether the current attempt goes to the client's own URL (the channel {@code primary}).
	 * @return whether it does
	 */
	public boolean onPrimaryChannel() {
		return this.channel == 0;
	}

	void channel(int index) {
		this.channel = index;
	}

	/**
	 * An answer to this call paused a channel: the call's own next attempt there is not refused for it (SPEC §8.2:
	 * "the call that received the header behaves as before"), the other calls' are.
	 */
	void pausedChannel(int index) {
		if (index < Long.SIZE) {
			this.pausedChannels |= 1L << index;
		}
	}

	/**
	 * Return whether an answer to this call paused the channel at that position.
	 */
	boolean pausedChannelItself(int index) {
		return index < Long.SIZE && (this.pausedChannels & (1L << index)) != 0;
	}

	/**
	 * Return whether the request turned out to be poison: no further attempt.
	 * @return whether it is poison
	 */
	public boolean poisoned() {
		return this.poisoned;
	}

	void poisoned(boolean poisoned) {
		this.poisoned = poisoned;
	}

	/**
	 * Return the name of the channel of the last attempt.
	 * @return the channel's name
	 */
	public String lastChannel() {
		return this.lastChannel;
	}

	/**
	 * The adapter found that the current attempt's request names no host (a relative URL: an HTTP service group
	 * without a base URL): no HTTP client could send it, whatever it failed with.
	 */
	public void attemptWithoutHost() {
		this.attemptWithoutHost = true;
	}

	/**
	 * A load balancer in front of the HTTP client (Spring Cloud LoadBalancer's, for a Feign client without a URL)
	 * chose an instance and handed the current attempt on to the HTTP client.
	 */
	public void handedOn() {
		this.handedOn = true;
	}

	/**
	 * Return whether the load balancer handed the current attempt on ({@link #handedOn()}), and forget it for the
	 * next one: one that did not found no instance, and answered by itself.
	 * @return whether it did
	 */
	public boolean takeHandedOn() {
		boolean handed = this.handedOn;
		this.handedOn = false;
		return handed;
	}

	/**
	 * Return whether the current attempt's request names no host.
	 * @return whether it does not
	 */
	boolean attemptHasNoHost() {
		return this.attemptWithoutHost;
	}

	/** The last attempt never got a connection, so it did not reach the wire; it still counts as a try. */
	void attemptNotSent() {
		this.attempts--;
	}

	/**
	 * Return the attempts that reached the wire.
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * Return the attempts made, whether or not they reached the wire: what {@code max-attempts} counts.
	 * @return the tries
	 */
	public int tries() {
		return this.tries;
	}

	/**
	 * Return the method key of the call.
	 * @return the method key
	 */
	public String methodKey() {
		return this.methodKey;
	}

	/**
	 * Return the sanitized request line of the last attempt, {@code null} when none was made. Computed on
	 * demand: only failed calls need it.
	 * @return the request line
	 */
	public String requestLine() {
		return (this.lastMethod != null) ? Requests.requestLine(this.lastMethod, this.lastUrl) : null;
	}

	/**
	 * Return the time since the call started.
	 * @return nanoseconds
	 */
	public long elapsedNanos() {
		return System.nanoTime() - this.startNanos;
	}

	/**
	 * Remember the exception the adapter made of the last attempt's failure.
	 * @param failure the exception
	 * @param rule its rule
	 */
	public void failed(UpstreamException failure, Rule rule) {
		this.lastFailure = failure;
		this.lastRule = rule;
	}

	void suppressed(RetryDecision.Suppression reason) {
		this.suppressed = reason;
	}

	/**
	 * Return why the last retry the rule allowed was not made, {@code null} if none was suppressed.
	 * @return the reason
	 */
	public RetryDecision.Suppression suppressed() {
		return this.suppressed;
	}

	/**
	 * Remember the exception the application's own error decoder made of an answer the table may retry: the
	 * caller gets it if that answer ends the call.
	 * @param answer the answer, as Triage's exception
	 * @param decoded what the application's decoder made of it
	 */
	public void decodedByApplication(UpstreamException answer, RuntimeException decoded) {
		this.decodedAnswer = answer;
		this.decodedAs = decoded;
	}

	/**
	 * Return the exception the application's own error decoder made of an answer.
	 * @param answer the answer that ended the call
	 * @return the decoder's exception, {@code null} when it made none of that answer
	 */
	public RuntimeException decodedByApplication(UpstreamException answer) {
		return (answer != null && answer == this.decodedAnswer) ? this.decodedAs : null;
	}

	/**
	 * Remember what the last attempt really ended in (a non-2xx answer or a transport failure), built only if
	 * asked for.
	 */
	void answered(Supplier<? extends UpstreamException> answer, Rule rule) {
		this.lastAnswer = answer;
		this.lastRule = rule;
	}

	/**
	 * Return what the last attempt really ended in, {@code null} when it succeeded or nothing was attempted.
	 * @return the outcome as an exception
	 */
	public UpstreamException lastAnswer() {
		return (this.lastAnswer != null) ? this.lastAnswer.get() : null;
	}

	/**
	 * Return the last failure the adapter reported.
	 * @return the failure, {@code null} for none
	 */
	public UpstreamException lastFailure() {
		return this.lastFailure;
	}

	/**
	 * Return the rule of the last failed attempt.
	 * @return the rule, {@code null} for none
	 */
	public Rule lastRule() {
		return this.lastRule;
	}

	/**
	 * A thread's current call.
	 */
	private static final class Slot {

		private Call call;

	}

}
