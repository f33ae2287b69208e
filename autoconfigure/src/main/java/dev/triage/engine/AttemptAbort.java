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
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The hard bound on one attempt: when it passes, the attempt's connection is shut down, whatever the attempt is
 * doing (connecting, sending, waiting for the status line, reading headers or the body, a decoder reading the
 * body stream). A read timeout alone cannot do this: every byte of a trickled answer resets it. One shared
 * daemon thread schedules every bound; nothing waits on it.
 */
public final class AttemptAbort {

	private static final ScheduledThreadPoolExecutor SCHEDULER = scheduler();

	private volatile ScheduledFuture<?> pending;

	private volatile boolean fired;

	private volatile long generation;

	private long abortAtNanos;

	private Duration configured;

	private long configuredMillis = -1;

	private static ScheduledThreadPoolExecutor scheduler() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "triage-attempt-abort");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setRemoveOnCancelPolicy(true);
		// A task that becomes the head of the scheduler's queue wakes its thread. Every attempt arms a bound and
		// disarms it when it ends, so without this the queue would be empty between calls and each bound would
		// wake the thread: a context switch per call (measured: 19,013 wakes for 20,000 calls). A no-op every
		// second stays ahead of any bound longer than that, so arming one is a queue insertion and nothing more.
		scheduler.scheduleAtFixedRate(() -> {
		}, 1, 1, TimeUnit.SECONDS);
		return scheduler;
	}

	/**
	 * Set the bound of the next attempt; armed once the HTTP client knows how to shut its connection down.
	 * @param abortAtNanos when, on {@link System#nanoTime()}'s scale
	 * @param configured the configured value that bound stands for (the deadline, or the attempt bound)
	 */
	public void bound(long abortAtNanos, Duration configured) {
		set(abortAtNanos, configured, -1);
	}

	/**
	 * Set the bound of the next attempt, as {@link #bound(long, Duration)} with the configured value in
	 * milliseconds: its {@link Duration} is only built if the bound fires.
	 * @param abortAtNanos when, on {@link System#nanoTime()}'s scale
	 * @param configuredMillis the configured value that bound stands for, in milliseconds
	 */
	public void bound(long abortAtNanos, long configuredMillis) {
		set(abortAtNanos, null, configuredMillis);
	}

	private void set(long abortAtNanos, Duration configured, long configuredMillis) {
		cancel();
		this.generation++;
		this.fired = false;
		this.abortAtNanos = abortAtNanos;
		this.configured = configured;
		this.configuredMillis = configuredMillis;
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
	public <T> void arm(T target, Consumer<? super T> shutdown) {
		if (this.configured == null && this.configuredMillis < 0) {
			return;
		}
		long delay = this.abortAtNanos - System.nanoTime();
		// A bound that fires after the next attempt set its own (the timer was already running when it was
		// cancelled) must neither mark nor cut that attempt: each bound carries its generation.
		Bound<T> bound = new Bound<>(this, ++this.generation, target, shutdown);
		if (delay <= 0) {
			bound.call();
			return;
		}
		this.pending = SCHEDULER.schedule(bound, delay, TimeUnit.NANOSECONDS);
	}

	/**
	 * Return whether the bound passed and the connection was shut down.
	 */
	public boolean fired() {
		return this.fired;
	}

	/**
	 * Return the configured value of the bound that fired.
	 */
	public Duration configured() {
		Duration configured = this.configured;
		return (configured != null || this.configuredMillis < 0) ? configured : Duration.ofMillis(this.configuredMillis);
	}

	/**
	 * Disarm: the call is over, or the next attempt sets its own bound.
	 */
	public void cancel() {
		ScheduledFuture<?> pending = this.pending;
		if (pending != null) {
			pending.cancel(false);
			this.pending = null;
		}
	}

	/**
	 * One armed bound, the scheduler's task: a {@link Callable} so that the scheduler does not wrap it in an
	 * adapter of its own.
	 */
	private static final class Bound<T> implements Callable<Void> {

		private final AttemptAbort abort;

		private final long generation;

		private final T target;

		private final Consumer<? super T> shutdown;

		Bound(AttemptAbort abort, long generation, T target, Consumer<? super T> shutdown) {
			this.abort = abort;
			this.generation = generation;
			this.target = target;
			this.shutdown = shutdown;
		}

		@Override
		public Void call() {
			if (this.abort.generation == this.generation) {
				this.abort.fired = true;
				this.shutdown.accept(this.target);
			}
			return null;
		}

	}

}
