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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.triage.TransportFailure;
import dev.triage.policy.RetryPlanner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The hard bound on one attempt: when it passes, the attempt's connection is shut down, whatever the attempt is
 * doing (connecting, sending, waiting for the status line, reading headers or the body, a decoder reading the
 * body stream). A read timeout alone cannot do this: every byte of a trickled answer resets it.
 * <p>
 * One shared daemon thread, {@code triage-attempt-abort}, watches every armed bound; nothing waits on it. Arming
 * a bound writes a few fields and, once per call, puts the call's bound on the watch's list (no lock, no task,
 * no wake-up while the watch is ticking); disarming it is one compare-and-set. The watch looks at the list every
 * {@link #TICK_MILLIS} ms at most (sooner when a bound it knows of passes sooner): a bound fires when it passes
 * or up to that much later. After a second with nothing armed the thread ends, and the next bound armed starts a
 * new one: no thread of Triage's outlives the calls (an application closed, a test's contexts, a redeploy).
 */
public final class AttemptAbort {

	/** How late a bound may fire, at most: the watch looks at the armed bounds once a tick. */
	public static final long TICK_MILLIS = 10;

	/**
	 * How much of its bound an attempt must have left to send its request: one with less (its pooled connection
	 * came just before the call's deadline) would reach the upstream only to be cut while it runs, a POST perhaps
	 * executed with nobody to hear the answer. It is not sent; nothing reached the wire.
	 */
	public static final long SEND_MARGIN_MILLIS = RetryPlanner.LEAST_TIME_FOR_AN_ATTEMPT.toMillis();

	private static final long SEND_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(SEND_MARGIN_MILLIS);

	private static final Log logger = LogFactory.getLog(AttemptAbort.class);

	private static final long DISARMED = 0;

	/** Fired once the request may have reached the upstream. */
	private static final long FIRED = -1;

	/** Fired while the attempt held a connection it had not sent its request on (connecting). */
	private static final long FIRED_CONNECTING = -2;

	/** Fired while the attempt waited for a pooled connection. */
	private static final long FIRED_LEASING = -3;

	/** Not sent: less than {@link #SEND_MARGIN_MILLIS} of the bound was left when the request was ready. */
	private static final long FIRED_UNSENT = -4;

	/** The low bit of an armed state: the request may have reached the upstream. */
	private static final long SENT = 1;

	private static final VarHandle ARMED;

	private static final VarHandle LISTED;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			ARMED = lookup.findVarHandle(AttemptAbort.class, "armed", long.class);
			LISTED = lookup.findVarHandle(AttemptAbort.class, "listed", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final Watch WATCH = new Watch();

	/**
	 * The armed bound: its generation shifted left by one (each arming takes a new one, so that the watch can
	 * neither fire a bound armed after it looked nor be fooled by one disarmed and armed again) with {@link #SENT}
	 * as its low bit; or {@link #DISARMED}, or one of the fired states. One word, so that the watch firing and the
	 * caller starting to send cannot both win: a bound that fired before the request was sent is known as such.
	 */
	private volatile long armed;

	/** Whether this bound is on the watch's list. */
	private volatile boolean listed;

	/** The next bound on the watch's list, or on the stack of those that arrived. */
	private AttemptAbort next;

	private long generation;

	private long abortAtNanos;

	private Duration configured;

	private long configuredMillis = -1;

	private Object target;

	private Consumer<Object> shutdown;

	/** Whether the target holds a connection, {@code null} when not asked. */
	private Predicate<Object> holdsConnection;

	private long deadlineAtNanos = Long.MAX_VALUE;

	private Duration deadline;

	/** Whether the HTTP client's wait for a pooled connection was shortened to end at the call's deadline. */
	private boolean leaseShortened;

	/**
	 * Set the bound of the next attempt at the call's deadline; armed once the HTTP client knows how to shut its
	 * connection down.
	 * @param abortAtNanos when, on {@link System#nanoTime()}'s scale
	 * @param deadline the deadline that bound stands for, {@code null} for none
	 */
	public void bound(long abortAtNanos, Duration deadline) {
		set(abortAtNanos, deadline, -1, (deadline != null) ? abortAtNanos : Long.MAX_VALUE, deadline);
	}

	/**
	 * Set the bound of the next attempt at its own bound, without a deadline after it.
	 * @param abortAtNanos when, on {@link System#nanoTime()}'s scale
	 * @param configuredMillis the attempt bound, in milliseconds
	 */
	public void bound(long abortAtNanos, long configuredMillis) {
		set(abortAtNanos, null, configuredMillis, Long.MAX_VALUE, null);
	}

	/**
	 * Set the bound of the next attempt at its own bound, before the call's deadline: as
	 * {@link #bound(long, Duration)} with the configured value in milliseconds (its {@link Duration} is only built
	 * if the bound fires).
	 * @param abortAtNanos when, on {@link System#nanoTime()}'s scale
	 * @param configuredMillis the attempt bound, in milliseconds
	 * @param deadlineAtNanos when the call's deadline passes, {@link Long#MAX_VALUE} for none
	 * @param deadline the call's deadline, {@code null} for none
	 */
	public void bound(long abortAtNanos, long configuredMillis, long deadlineAtNanos, Duration deadline) {
		set(abortAtNanos, null, configuredMillis, deadlineAtNanos, deadline);
	}

	private void set(long abortAtNanos, Duration configured, long configuredMillis, long deadlineAtNanos,
			Duration deadline) {
		// Disarmed, and no longer fired: the previous attempt's bound is over.
		this.armed = DISARMED;
		this.abortAtNanos = abortAtNanos;
		this.configured = configured;
		this.configuredMillis = configuredMillis;
		this.deadlineAtNanos = deadlineAtNanos;
		this.deadline = deadline;
		this.leaseShortened = false;
	}

	/**
	 * Return how long the call's deadline leaves from now.
	 * @return the nanoseconds left, {@link Long#MAX_VALUE} when the call has no deadline
	 */
	public long deadlineNanosLeft() {
		return (this.deadline != null) ? this.deadlineAtNanos - System.nanoTime() : Long.MAX_VALUE;
	}

	/**
	 * Return the call's deadline.
	 * @return the deadline, {@code null} for none
	 */
	public Duration deadline() {
		return this.deadline;
	}

	/**
	 * The HTTP client's wait for a pooled connection was shortened to end at the call's deadline (shutting a
	 * connection down cannot end a wait that holds none): when that wait runs out, the deadline is what fired.
	 */
	public void leaseShortened() {
		this.leaseShortened = true;
	}

	/**
	 * Return whether the attempt's wait for a pooled connection was shortened to end at the call's deadline.
	 */
	public boolean isLeaseShortened() {
		return this.leaseShortened;
	}

	/**
	 * Arm the bound set by {@link #bound}.
	 * @param shutdown shuts the attempt's connection down
	 */
	public void arm(Runnable shutdown) {
		arm(shutdown, Runnable::run);
	}

	/**
	 * Arm the bound set by {@link #bound}, without a lambda capturing what to shut down.
	 * @param <T> the type of what is shut down
	 * @param target what is shut down (the exchange)
	 * @param shutdown shuts the attempt's connection down
	 */
	@SuppressWarnings("unchecked")
	public <T> void arm(T target, Consumer<? super T> shutdown) {
		arm(target, null, shutdown, SENT);
	}

	/**
	 * Arm the bound set by {@link #bound} for an HTTP client that says when it starts to send the request
	 * ({@link #sending()}): a bound that passes before then cut an attempt that sent nothing ({@link #cutAs()}), and
	 * the request is not sent afterwards.
	 * @param <T> the type of what is shut down
	 * @param target what is shut down (the exchange)
	 * @param holdsConnection whether the exchange holds a connection (else it waits for a pooled one)
	 * @param shutdown shuts the attempt's connection down
	 */
	public <T> void armUntilSent(T target, Predicate<? super T> holdsConnection, Consumer<? super T> shutdown) {
		arm(target, holdsConnection, shutdown, 0);
	}

	@SuppressWarnings("unchecked")
	private <T> void arm(T target, Predicate<? super T> holdsConnection, Consumer<? super T> shutdown, long sent) {
		if (this.configured == null && this.configuredMillis < 0) {
			return;
		}
		this.target = target;
		this.shutdown = (Consumer<Object>) shutdown;
		this.holdsConnection = (Predicate<Object>) holdsConnection;
		long generation = (++this.generation << 1) | sent;
		if (this.abortAtNanos - System.nanoTime() <= 0) {
			this.armed = generation;
			fireSafely(this, generation);
			return;
		}
		// The fields above are written before the generation that publishes them.
		this.armed = generation;
		if (!this.listed && LISTED.compareAndSet(this, false, true)) {
			WATCH.add(this);
		}
	}

	/**
	 * Return whether the bound passed and the connection was shut down.
	 */
	public boolean fired() {
		return this.armed < 0;
	}

	/**
	 * Return what the attempt was doing when its bound fired, as the failure that ends it.
	 * @return {@link TransportFailure#READ_TIMEOUT} once the request may have reached the upstream (or when the
	 * HTTP client does not say when it sends), {@link TransportFailure#CONNECT_TIMEOUT} while it held a connection
	 * it had sent nothing on, {@link TransportFailure#POOL_TIMEOUT} while it waited for a pooled connection or when
	 * it got one with too little of the bound left to send ({@link #tooLateToSend()}: the wait for it is what ate
	 * the time, nearly always, and the upstream saw nothing to blame); {@code null} when the bound did not fire
	 */
	public TransportFailure cutAs() {
		long state = this.armed;
		return (state == FIRED) ? TransportFailure.READ_TIMEOUT
				: (state == FIRED_CONNECTING) ? TransportFailure.CONNECT_TIMEOUT
						: (state == FIRED_LEASING || state == FIRED_UNSENT) ? TransportFailure.POOL_TIMEOUT : null;
	}

	/**
	 * Return whether the request was held back at {@link #sending()}: less than {@link #SEND_MARGIN_MILLIS} of the
	 * bound was left.
	 */
	public boolean tooLateToSend() {
		return this.armed == FIRED_UNSENT;
	}

	/**
	 * The HTTP client is about to send the attempt's request (armed by {@link #armUntilSent}): from now on a bound
	 * that passes may cut a request the upstream has begun to execute. With less than {@link #SEND_MARGIN_MILLIS}
	 * of the bound left, the request is not sent ({@link #tooLateToSend()}).
	 * @return {@code false} when the bound fired before or too little of it is left: the request must not be sent
	 */
	public boolean sending() {
		return sending(this.target);
	}

	/**
	 * An exchange is about to send its request: when it is the one this bound was armed for, as {@link #sending()}.
	 * @param exchange the exchange
	 * @return {@code false} when it is this bound's and the bound fired before or too little of it is left: the
	 * request must not be sent
	 */
	public boolean sending(Object exchange) {
		return (exchange != this.target) || sending(exchange, System.nanoTime());
	}

	/**
	 * As {@link #sending(Object)} at a given time.
	 * @param exchange the exchange
	 * @param nowNanos the time, on {@link System#nanoTime()}'s scale
	 * @return whether the request may be sent
	 */
	boolean sending(Object exchange, long nowNanos) {
		if (exchange != this.target) {
			return true;
		}
		boolean late = this.abortAtNanos - nowNanos < SEND_MARGIN_NANOS;
		long state = this.armed;
		while (state > 0 && (state & SENT) == 0) {
			// Held back, the exchange needs no shutting down: the caller fails it before it sends.
			if (ARMED.compareAndSet(this, state, late ? FIRED_UNSENT : (state | SENT))) {
				return !late;
			}
			// Only the watch changes the state meanwhile: it fired.
			state = this.armed;
		}
		return state >= 0;
	}

	/**
	 * Return whether the bound is the call's deadline (not the attempt's own bound before it).
	 * @return whether it is
	 */
	public boolean boundIsDeadline() {
		return this.configured != null;
	}

	/**
	 * Return the configured value of the bound that fired.
	 */
	public Duration configured() {
		Duration configured = this.configured;
		return (configured != null || this.configuredMillis < 0) ? configured : Duration.ofMillis(this.configuredMillis);
	}

	/**
	 * Disarm: the call is over, or the next attempt sets its own bound. A bound that already fired stays fired.
	 */
	public void cancel() {
		long state = this.armed;
		while (state > 0 && !ARMED.compareAndSet(this, state, DISARMED)) {
			state = this.armed;
		}
	}

	/**
	 * Fire a bound: shutting a connection down that fails is logged, and stops neither the watch of every other
	 * bound nor the attempt that armed it.
	 */
	private static void fireSafely(AttemptAbort abort, long generation) {
		try {
			abort.fire(generation);
		}
		catch (Throwable ex) {
			logger.warn("Triage: shutting a connection down at its attempt bound failed", ex);
		}
	}

	/**
	 * Fire the bound armed with this generation, unless it was disarmed or armed again meanwhile; what the attempt
	 * was doing is decided in the same step that fires it.
	 */
	private void fire(long seen) {
		Object target = this.target;
		Consumer<Object> shutdown = this.shutdown;
		Predicate<Object> holdsConnection = this.holdsConnection;
		long state = seen;
		while (state > 0 && (state >>> 1) == (seen >>> 1)) {
			long fired = ((state & SENT) != 0) ? FIRED
					: (holdsConnection == null || holdsConnection.test(target)) ? FIRED_CONNECTING : FIRED_LEASING;
			if (ARMED.compareAndSet(this, state, fired)) {
				shutdown.accept(target);
				return;
			}
			// The caller started to send meanwhile, or disarmed the bound.
			state = this.armed;
		}
	}

	/**
	 * The watch: its thread takes the bounds listed since its last look, looks at every bound it watches, fires
	 * those that passed and lets go of those no longer armed. Bounds arrive on a lock-free stack linked through
	 * the bounds themselves (arming allocates nothing); the list it watches is its own.
	 */
	private static final class Watch implements Runnable {

		private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);

		private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

		private final AtomicReference<AttemptAbort> arrived = new AtomicReference<>();

		/** Whether a thread watches; it ends after a while with nothing armed, and an arrival starts another. */
		private final AtomicBoolean running = new AtomicBoolean();

		/**
		 * The bounds watched, linked through {@link AttemptAbort#next}: the watching thread's only (a thread ends
		 * with none, and the next one starts after it said so).
		 */
		private AttemptAbort watched;

		void add(AttemptAbort abort) {
			push(abort);
			// Read after the push: a thread that is ending looks for arrivals after it said so (see run).
			if (!this.running.get() && this.running.compareAndSet(false, true)) {
				start();
			}
		}

		private void start() {
			// Neither the caller's thread locals nor its class loader: the thread outlives no call but belongs to
			// none.
			Thread thread = new Thread(null, this, "triage-attempt-abort", 0, false);
			thread.setDaemon(true);
			thread.setContextClassLoader(null);
			thread.start();
		}

		private void push(AttemptAbort abort) {
			AttemptAbort head;
			do {
				head = this.arrived.get();
				abort.next = head;
			}
			while (!this.arrived.compareAndSet(head, abort));
		}

		@Override
		public void run() {
			long lastArmed = System.nanoTime();
			while (true) {
				// Nobody should interrupt this thread; if someone does, parking must not turn into spinning.
				Thread.interrupted();
				for (AttemptAbort abort = this.arrived.getAndSet(null); abort != null;) {
					AttemptAbort following = abort.next;
					abort.next = this.watched;
					this.watched = abort;
					abort = following;
				}
				long now = System.nanoTime();
				long sleep = TICK_NANOS;
				boolean any = false;
				AttemptAbort previous = null;
				for (AttemptAbort abort = this.watched; abort != null;) {
					AttemptAbort following = abort.next;
					long generation = abort.armed;
					if (generation > 0) {
						any = true;
						long left = abort.abortAtNanos - now;
						if (left <= 0) {
							fireSafely(abort, generation);
						}
						else if (left < sleep) {
							sleep = left;
						}
						previous = abort;
					}
					else {
						if (previous == null) {
							this.watched = following;
						}
						else {
							previous.next = following;
						}
						abort.next = null;
						abort.listed = false;
						// Armed again between the two readings: it arms without listing itself while it is listed.
						if (abort.armed > 0 && LISTED.compareAndSet(abort, false, true)) {
							push(abort);
						}
					}
					abort = following;
				}
				if (any || now - lastArmed < LINGER_NANOS) {
					if (any) {
						lastArmed = now;
					}
					LockSupport.parkNanos(this, sleep);
					continue;
				}
				// Nothing armed for a while (and nothing watched: every bound not armed was let go above): the
				// thread ends. Arrivals are looked for after saying so, so that a bound listed meanwhile is taken
				// either by this thread or by one its adder starts.
				this.running.set(false);
				if (this.arrived.get() == null || !this.running.compareAndSet(false, true)) {
					return;
				}
				lastArmed = System.nanoTime();
			}
		}

	}

}
