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

package dev.triage.fleet;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.triage.engine.ErrorMessages;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The fleet's Redis: every command runs on this store's own threads and is given up after
 * {@code triage.fleet.timeout}, so no caller waits on Redis longer than that. A command that fails or is late
 * marks Redis unavailable (one WARN per outage, {@code triage.fleet.errors}); a heartbeat finds it again and
 * the listeners registered with {@link #onReconnect} repair what was missed meanwhile.
 */
public final class FleetStore implements FleetStatus, AutoCloseable {

	private static final Log logger = LogFactory.getLog(FleetStore.class);

	private static final int LATE_IN_A_ROW = 3;

	/** When a heartbeat's ping is late while Redis is available. */
	private static final Duration PING_LATE = Duration.ofSeconds(1);

	/**
	 * When the first ping is late: it opens the connection, loading the Redis client's classes in a JVM that is
	 * still starting (seconds on a busy machine), which says nothing of Redis.
	 */
	private static final Duration FIRST_PING_LATE = Duration.ofSeconds(10);

	/** Every 20 heartbeat ticks (5 s by default) the repairs run: what pub/sub may have missed is read again. */
	private static final int REPAIR_TICKS = 20;

	private final StringRedisTemplate redis;

	private final RedisConnectionFactory connectionFactory;

	private final String prefix;

	private final Duration timeout;

	private final ThreadPoolExecutor commands;

	private final ScheduledExecutorService heartbeat;

	private final AtomicBoolean connected = new AtomicBoolean(true);

	private final AtomicBoolean beating = new AtomicBoolean();

	/** Whether the first ping went out (read and written by the heartbeat's thread only). */
	private boolean pinged;

	private final AtomicLong errors = new AtomicLong();

	private final AtomicInteger lateInARow = new AtomicInteger();

	/** Whether this outage's WARN said what Redis answered (not only that its answers came late). */
	private final AtomicBoolean causeSaid = new AtomicBoolean();

	private final AtomicLong commandsSent = new AtomicLong();

	private final List<Runnable> reconnectListeners = new CopyOnWriteArrayList<>();

	private final List<Runnable> repairs = new CopyOnWriteArrayList<>();

	/**
	 * Create the store and start its heartbeat.
	 * @param connectionFactory the application's Redis connection
	 * @param prefix the prefix of every key and channel
	 * @param timeout the longest wait for one command
	 * @param heartbeatInterval how often Redis is pinged (more often while it is unavailable)
	 */
	public FleetStore(RedisConnectionFactory connectionFactory, String prefix, Duration timeout,
			Duration heartbeatInterval) {
		this.connectionFactory = connectionFactory;
		this.redis = new StringRedisTemplate(connectionFactory);
		this.prefix = prefix;
		this.timeout = timeout;
		AtomicInteger threads = new AtomicInteger();
		// Redis commands block their thread until the client's own command timeout, which may be far longer
		// than ours: a few threads and a bounded queue, a full queue fails the command at once.
		this.commands = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1024), (task) -> {
			Thread thread = new Thread(task, "triage-fleet-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.commands.allowCoreThreadTimeOut(true);
		this.heartbeat = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "triage-fleet-heartbeat");
			thread.setDaemon(true);
			return thread;
		});
		long every = Math.max(50, heartbeatInterval.toMillis() / 4);
		AtomicLong ticks = new AtomicLong();
		// The first ping at once: the connection is opened while the application starts, not by a caller.
		this.heartbeat.execute(this::beat);
		this.heartbeat.scheduleWithFixedDelay(() -> {
			long tick = ticks.incrementAndGet();
			if (!this.connected.get() || tick % 4 == 0) {
				beat();
			}
			if (this.connected.get() && tick % REPAIR_TICKS == 0) {
				this.repairs.forEach(Runnable::run);
			}
		}, every, every, TimeUnit.MILLISECONDS);
	}

	/**
	 * Run a Redis command on the store's threads.
	 * @param <T> the result type
	 * @param operation what the command does, for the log
	 * @param command the command
	 * @return its result, failed with a timeout after {@code triage.fleet.timeout}
	 */
	public <T> CompletableFuture<T> submit(String operation, Function<StringRedisTemplate, T> command) {
		return submit(operation, command, this.timeout);
	}

	/**
	 * Run a Redis command on the store's threads with a bound of its own (at startup, the heartbeat).
	 * @param <T> the result type
	 * @param operation what the command does, for the log
	 * @param command the command
	 * @param timeout when to give up on it
	 * @return its result, failed with a timeout after {@code timeout}
	 */
	public <T> CompletableFuture<T> submit(String operation, Function<StringRedisTemplate, T> command,
			Duration timeout) {
		CompletableFuture<T> result = new CompletableFuture<>();
		try {
			// a command given up on still runs: a late pause write or lease is still worth having
			this.commands.execute(() -> {
				try {
					this.commandsSent.incrementAndGet();
					result.complete(command.apply(this.redis));
				}
				catch (Throwable ex) {
					if (!result.completeExceptionally(ex)) {
						// given up on already: what Redis finally answered still says why (a refused password)
						failedLate(operation, ex);
					}
				}
			});
		}
		catch (RejectedExecutionException ex) {
			result.completeExceptionally(ex);
		}
		return result.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((value, failure) -> {
			if (failure != null) {
				failed(operation, failure);
			}
			else {
				succeeded();
			}
		});
	}

	/**
	 * Say that Redis failed outside a command of the store's (the pause announcements' subscription): marked
	 * unavailable, counted, said once per outage; the heartbeat finds Redis again.
	 * @param operation what failed, for the log
	 * @param failure why
	 */
	public void unavailable(String operation, Throwable failure) {
		failed(operation, failure);
	}

	/**
	 * Register something to run each time Redis is reached again after an outage.
	 * @param listener the listener; runs on a store thread and must only submit commands
	 */
	public void onReconnect(Runnable listener) {
		this.reconnectListeners.add(listener);
	}

	/**
	 * Register something to run every few seconds while Redis answers, to repair what a lost message missed.
	 * @param repair the repair; runs on the heartbeat thread and must only submit commands
	 */
	public void onRepair(Runnable repair) {
		this.repairs.add(repair);
	}

	/**
	 * Return a key under the prefix, hash-tagged by client so that a client's keys share a cluster slot.
	 * @param client the client name
	 * @param suffix what the key holds
	 * @return the key
	 */
	public String key(String client, String suffix) {
		return this.prefix + "{" + client + "}:" + suffix;
	}

	/**
	 * Return the prefix of keys and channels.
	 * @return the prefix
	 */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * Return the longest wait for one command.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.timeout;
	}

	/**
	 * Return the application's Redis connection.
	 * @return the connection factory
	 */
	public RedisConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	@Override
	public String store() {
		return "redis";
	}

	@Override
	public boolean connected() {
		return this.connected.get();
	}

	@Override
	public long errors() {
		return this.errors.get();
	}

	/**
	 * Return the Redis commands run since startup, heartbeats included.
	 * @return the count
	 */
	public long commandsSent() {
		return this.commandsSent.get();
	}

	@Override
	public void close() {
		this.heartbeat.shutdownNow();
		this.commands.shutdownNow();
	}

	/**
	 * Ping Redis. While it is available, a ping is late only after {@link #PING_LATE} (or the timeout, if longer):
	 * no caller waits on it, and a JVM that is starting on a busy machine answers its first pings late without Redis
	 * being any slower (its callers' own late commands still count); the first ping, which opens the connection, only
	 * after {@link #FIRST_PING_LATE}. While Redis is unavailable, a ping must come within the timeout to find it
	 * again.
	 */
	private void beat() {
		if (this.beating.compareAndSet(false, true)) {
			Duration late = this.pinged ? PING_LATE : FIRST_PING_LATE;
			this.pinged = true;
			Duration bound = (this.connected.get() && late.compareTo(this.timeout) > 0) ? late : this.timeout;
			submit("ping", (redis) -> redis.execute((org.springframework.data.redis.core.RedisCallback<String>) (
					connection) -> connection.ping()), bound)
				.whenComplete((pong, failure) -> this.beating.set(false));
		}
	}

	/**
	 * A failed command marks Redis unavailable at once; late answers do when {@value #LATE_IN_A_ROW} come in a
	 * row (one late answer on a busy machine is not an outage, and its caller fell back already).
	 */
	private void failed(String operation, Throwable failure) {
		this.errors.incrementAndGet();
		Throwable cause = (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null)
				? failure.getCause() : failure;
		boolean late = cause instanceof java.util.concurrent.TimeoutException;
		if (late && this.lateInARow.incrementAndGet() < LATE_IN_A_ROW) {
			return;
		}
		if (this.connected.compareAndSet(true, false)) {
			this.causeSaid.set(!late);
			String reason = late ? LATE_IN_A_ROW + " answers in a row later than triage.fleet.timeout="
					+ this.timeout.toMillis() + "ms" : describe(cause);
			logger.warn("Redis of triage.fleet is unavailable (" + operation + ": " + reason
					+ "); each instance protects its upstreams on its own (pauses it learns itself, its share of "
					+ "fleet rate limits) until Redis answers again");
		}
		else if (!late) {
			sayCause(operation, cause);
		}
	}

	/**
	 * A command given up on as late failed after all: already counted, but while Redis is unavailable for late
	 * answers, what it answered in the end (an authentication error, a refused connection) is said once.
	 */
	private void failedLate(String operation, Throwable failure) {
		if (!this.connected.get()) {
			sayCause(operation, failure);
		}
	}

	private void sayCause(String operation, Throwable cause) {
		if (this.causeSaid.compareAndSet(false, true)) {
			logger.warn("Why Redis of triage.fleet stopped answering: " + operation + " failed with " + describe(cause));
		}
	}

	/**
	 * Say why a command failed: the innermost cause (Redis's own error reply, such as {@code WRONGPASS}, or the
	 * connection's failure) and its message, sanitized: no credentials, no user info in a URL, one line.
	 */
	static String describe(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = ErrorMessages.sanitize(root.getMessage());
		return root.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

	private void succeeded() {
		this.lateInARow.set(0);
		if (this.connected.compareAndSet(false, true)) {
			this.causeSaid.set(false);
			logger.info("Redis of triage.fleet answers again; pauses and fleet rate limits are shared again");
			for (Runnable listener : this.reconnectListeners) {
				listener.run();
			}
		}
	}

}
