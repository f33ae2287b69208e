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

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.triage.overload.Pause;
import dev.triage.overload.Pauses;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Pauses shared by the fleet (SPEC §13). A pause this instance learns from a {@code Retry-After} is written to
 * Redis off the call's thread (extend-only, expiring when the pause ends) and announced on a channel; an
 * announcement extends the local pause of every instance. At startup, and whenever Redis is reached again,
 * each instance reads the pauses in Redis. A call never waits on Redis: it only reads its local pause.
 */
public final class SharedPauses implements Pauses, AutoCloseable {

	private static final Log logger = LogFactory.getLog(SharedPauses.class);

	/**
	 * Extend-only pause: KEYS[1] the pause, ARGV the milliseconds asked for, this instance's id, the channel and
	 * the announcement's head; returns the milliseconds the pause now lasts.
	 */
	static final RedisScript<Long> PAUSE = RedisScript.of("""
			local ms = tonumber(ARGV[1])
			local left = redis.call('PTTL', KEYS[1])
			if left < ms then
			  redis.call('SET', KEYS[1], ARGV[2], 'PX', ms)
			  redis.call('PUBLISH', ARGV[3], ARGV[4] .. ms)
			  return ms
			end
			return left
			""", Long.class);

	/** How long startup waits for the pauses in Redis (a first connection may take longer than a command). */
	private static final Duration STARTUP = Duration.ofSeconds(2);

	private final FleetStore store;

	private final String topic;

	private final String instance = UUID.randomUUID().toString();

	private final Map<String, Shared> pauses = new ConcurrentHashMap<>();

	private final AtomicBoolean started = new AtomicBoolean();

	private volatile RedisMessageListenerContainer container;

	private boolean closed;

	/**
	 * Create the shared pauses.
	 * @param store the fleet's Redis
	 */
	public SharedPauses(FleetStore store) {
		this.store = store;
		this.topic = store.prefix() + "pauses";
		store.onReconnect(this::resync);
		store.onRepair(this::repair);
	}

	@Override
	public Pause create(String client, String channel, Clock clock) {
		Shared shared = new Shared(client, channel, this.store.key(client, "pause:" + channel));
		shared.pause = new Pause(clock, () -> announce(shared));
		this.pauses.put(client + "\n" + channel, shared);
		if (this.started.get()) {
			read(List.of(shared), this.store.timeout());
		}
		return shared.pause;
	}

	/**
	 * Subscribe to announcements and read the pauses already in Redis, waiting at most the store's timeout for
	 * the read; call once every pause of the application's clients is created.
	 */
	public void start() {
		if (!this.started.compareAndSet(false, true)) {
			return;
		}
		subscribe();
		Duration bound = STARTUP.compareTo(this.store.timeout()) > 0 ? STARTUP : this.store.timeout();
		try {
			read(new ArrayList<>(this.pauses.values()), bound).get(bound.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// counted and logged by the store; the pauses are read again when Redis answers
		}
	}

	/**
	 * Subscribe to announcements with a new listener container. When Redis is unreachable (at startup, or still
	 * after an outage) the instance goes on with its own protection; the next reconnection subscribes again.
	 */
	private synchronized void subscribe() {
		if (this.closed) {
			return;
		}
		stop(this.container);
		RedisMessageListenerContainer listeners = new RedisMessageListenerContainer();
		listeners.setConnectionFactory(this.store.connectionFactory());
		listeners.setRecoveryInterval(1000);
		listeners.addMessageListener(this::received, new ChannelTopic(this.topic));
		listeners.afterPropertiesSet();
		this.container = listeners;
		try {
			listeners.start();
		}
		catch (RuntimeException ex) {
			this.store.unavailable("subscribe to pauses", ex);
		}
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		stop(this.container);
		this.container = null;
	}

	private static void stop(RedisMessageListenerContainer listeners) {
		if (listeners != null) {
			try {
				listeners.destroy();
			}
			catch (Exception ex) {
				logger.debug("Stopping the fleet's pause announcements failed", ex);
			}
		}
	}

	/**
	 * Runs on the call's thread when a response extended a pause: only queues the write.
	 */
	private void announce(Shared shared) {
		if (!this.store.connected()) {
			shared.unwritten = true; // written when Redis answers again (resync)
			return;
		}
		if (shared.writing.compareAndSet(false, true)) {
			shared.unwritten = false;
			this.store.submit("pause", (redis) -> {
				shared.writing.set(false);
				long ms = shared.pause.remaining().toMillis();
				if (ms <= 0) {
					return null;
				}
				Long left = redis.execute(PAUSE, List.of(shared.key), Long.toString(ms), this.instance, this.topic,
						shared.client + "\n" + shared.channel + "\n");
				if (left != null && left > ms) {
					shared.pause.extendFor(Duration.ofMillis(left));
				}
				return left;
			}).whenComplete((left, failure) -> {
				shared.writing.set(false);
				if (failure != null) {
					shared.unwritten = true; // written again by the next repair
				}
			});
		}
	}

	private void received(Message message, byte[] pattern) {
		String[] parts = new String(message.getBody(), StandardCharsets.UTF_8).split("\n");
		if (parts.length != 3) {
			return;
		}
		Shared shared = this.pauses.get(parts[0] + "\n" + parts[1]);
		if (shared != null) {
			try {
				shared.pause.extendFor(Duration.ofMillis(Long.parseLong(parts[2])));
			}
			catch (NumberFormatException ex) {
				// not one of ours
			}
		}
	}

	/**
	 * Every few seconds: write the pauses whose write failed, read the others' (an announcement may be lost).
	 */
	private void repair() {
		for (Shared shared : this.pauses.values()) {
			if (shared.unwritten && !shared.pause.remaining().isZero()) {
				announce(shared);
			}
		}
		read(new ArrayList<>(this.pauses.values()), this.store.timeout());
	}

	/**
	 * Redis answers again: write the pauses learnt meanwhile (extend-only, announced), then read them all.
	 */
	private void resync() {
		RedisMessageListenerContainer listeners = this.container;
		if (this.started.get() && (listeners == null || !listeners.isListening())) {
			this.store.submit("subscribe to pauses", (redis) -> {
				subscribe();
				return null;
			}, STARTUP);
		}
		for (Shared shared : this.pauses.values()) {
			if (!shared.pause.remaining().isZero()) {
				announce(shared);
			}
		}
		read(new ArrayList<>(this.pauses.values()), this.store.timeout());
	}

	private java.util.concurrent.CompletableFuture<List<Object>> read(List<Shared> shared, Duration timeout) {
		if (shared.isEmpty()) {
			return java.util.concurrent.CompletableFuture.completedFuture(List.of());
		}
		// One PTTL after another on the application's shared connection: a pipeline would take a dedicated
		// connection of Lettuce's, a new one every few seconds. The keys are in their clients' cluster slots.
		return this.store.submit("read pauses", (redis) -> redis.execute((RedisCallback<List<Object>>) (connection) -> {
			List<Object> left = new ArrayList<>();
			for (Shared one : shared) {
				Long ms = connection.keyCommands().pTtl(one.key.getBytes(StandardCharsets.UTF_8));
				left.add(ms);
				if (ms != null && ms > 0) {
					one.pause.extendFor(Duration.ofMillis(ms));
				}
			}
			return left;
		}), timeout);
	}

	private static final class Shared {

		final String client;

		final String channel;

		final String key;

		final AtomicBoolean writing = new AtomicBoolean();

		volatile boolean unwritten;

		volatile Pause pause;

		Shared(String client, String channel, String key) {
			this.client = client;
			this.channel = channel;
			this.key = key;
		}

	}

}
