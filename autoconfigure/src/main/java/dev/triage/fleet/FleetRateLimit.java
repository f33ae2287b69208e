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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.triage.overload.RateLimit;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A client's rate limit shared by the fleet (SPEC §13): one bucket of {@code limit-for-period} permits per
 * client in Redis, each permit coming back one {@code limit-refresh-period} after it was taken, on the Redis
 * server's clock. An instance takes {@code lease} permits per round trip and spends them locally; permits it
 * does not spend within the period lapse. So in any window of one period the fleet's attempts are at most
 * {@code limit-for-period} plus the permits leased before the window and not yet used when it began.
 * <p>
 * While Redis cannot be reached (or answers later than {@code triage.fleet.timeout}), attempts take permits
 * from the instance's own share instead, {@code limit-for-period / triage.fleet.instances} per period.
 */
public final class FleetRateLimit implements RateLimit {

	/**
	 * The bucket: KEYS[1] the grants of the last period (sorted set, member {@code seq:permits}, score the
	 * Redis time in ms), KEYS[2] the permits they hold and a sequence (hash); ARGV the limit, the period in ms
	 * and the permits wanted. Returns the permits granted and, when none, the ms until one comes back.
	 */
	static final RedisScript<List> LEASE = RedisScript.of("""
			local t = redis.call('TIME')
			local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			local limit = tonumber(ARGV[1])
			local period = tonumber(ARGV[2])
			local want = tonumber(ARGV[3])
			local used = 0
			if redis.call('EXISTS', KEYS[1]) == 1 then
			  used = tonumber(redis.call('HGET', KEYS[2], 'used') or '0')
			end
			local old = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - period)
			for _, member in ipairs(old) do
			  used = used - tonumber(string.match(member, ':(%d+)$'))
			end
			if #old > 0 then
			  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - period)
			end
			if used < 0 then used = 0 end
			local grant = math.min(want, limit - used)
			local wait = 0
			if grant > 0 then
			  used = used + grant
			  local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
			  redis.call('ZADD', KEYS[1], now, seq .. ':' .. grant)
			else
			  grant = 0
			  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
			  if first[2] then wait = tonumber(first[2]) + period - now end
			end
			redis.call('HSET', KEYS[2], 'used', used)
			redis.call('PEXPIRE', KEYS[1], period + 1000)
			redis.call('PEXPIRE', KEYS[2], period + 1000)
			return { grant, wait }
			""", List.class);

	private static final int ROUNDS = 3;

	private final String client;

	private final Settings settings;

	private final FleetStore store;

	private final RateLimit fallback;

	private final List<String> keys;

	private final AtomicReference<Lease> lease = new AtomicReference<>(new Lease(0, System.nanoTime()));

	private final AtomicReference<CompletableFuture<Long>> refill = new AtomicReference<>();

	private volatile long emptyUntil = System.nanoTime();

	/**
	 * Create the limit of one client.
	 * @param client the client name
	 * @param settings its fleet rate limit
	 * @param store the fleet's Redis
	 * @param fallback the instance's own share, used while Redis cannot be reached
	 */
	public FleetRateLimit(String client, Settings settings, FleetStore store, RateLimit fallback) {
		this.client = client;
		this.settings = settings;
		this.store = store;
		this.fallback = fallback;
		this.keys = List.of(store.key(client, "rate"), store.key(client, "rate-used"));
	}

	@Override
	public boolean acquire() {
		long start = System.nanoTime();
		if (takeLeased(start)) {
			return true;
		}
		if (!this.store.connected()) {
			return this.fallback.acquire();
		}
		long timeout = this.store.timeout().toNanos();
		long deadline = start + timeout;
		for (int round = 0; round < ROUNDS; round++) {
			if (System.nanoTime() - this.emptyUntil < 0) {
				return false;
			}
			if (round > 0 && System.nanoTime() - deadline >= 0) {
				// Redis answered, and the permits it granted went to this instance's other callers: the fleet's
				// limit is in use.
				return false;
			}
			CompletableFuture<Long> pending = refill();
			try {
				// The first lease: until the store answers or gives up, triage.fleet.timeout after it sent the
				// command. Giving up sooner here would take a permit of the instance's own share while the lease
				// that is on its way is installed and spent too: one attempt over the fleet's limit, with Redis up.
				// The wait of its own is only a guard against a store that never answers. A later lease (the one
				// waited for went to this instance's other callers): only as long as the caller's own
				// triage.fleet.timeout lasts, so that no call waits on Redis longer than that.
				pending.get((round == 0) ? timeout * 2 : deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				// A later lease still on its way when the caller's time ran out: the fleet's limit is in use (Redis
				// answered this caller's first lease); its own share would spend a permit twice.
				return (round == 0) && this.fallback.acquire();
			}
			catch (ExecutionException ex) {
				return this.fallback.acquire();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			if (takeLeased(System.nanoTime())) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String name() {
		return this.client;
	}

	@Override
	public int availablePermissions() {
		Lease current = this.lease.get();
		return (System.nanoTime() - current.expires < 0) ? Math.max(0, current.left.get()) : 0;
	}

	private boolean takeLeased(long now) {
		Lease current = this.lease.get();
		if (now - current.expires >= 0) {
			return false;
		}
		int left = current.left.get();
		while (left > 0) {
			if (current.left.compareAndSet(left, left - 1)) {
				return true;
			}
			left = current.left.get();
		}
		return false;
	}

	/**
	 * One round trip for a lease, shared by the callers that need one at the same time.
	 */
	private CompletableFuture<Long> refill() {
		while (true) {
			CompletableFuture<Long> current = this.refill.get();
			if (current != null && !current.isDone()) {
				return current;
			}
			CompletableFuture<Long> next = new CompletableFuture<>();
			if (this.refill.compareAndSet(current, next)) {
				long sent = System.nanoTime();
				this.store.submit("fleet rate limit", (redis) -> redis.execute(LEASE, this.keys,
						Integer.toString(this.settings.limitForPeriod()),
						Long.toString(this.settings.limitRefreshPeriod().toMillis()),
						Integer.toString(this.settings.lease())))
					.whenComplete((result, failure) -> {
						if (failure != null) {
							next.completeExceptionally(failure);
							return;
						}
						long granted = ((Number) result.get(0)).longValue();
						if (granted > 0) {
							// the permits come back in Redis one period after the grant, which is later than sent
							this.lease.set(new Lease((int) granted, sent + this.settings.limitRefreshPeriod().toNanos()));
						}
						else {
							this.emptyUntil = System.nanoTime()
									+ TimeUnit.MILLISECONDS.toNanos(((Number) result.get(1)).longValue());
						}
						next.complete(granted);
					});
				return next;
			}
		}
	}

	/**
	 * A client's fleet rate limit.
	 *
	 * @param limitForPeriod the attempts the fleet may send per period
	 * @param limitRefreshPeriod the period
	 * @param lease the permits taken per round trip
	 */
	public record Settings(int limitForPeriod, Duration limitRefreshPeriod, int lease) {

		/**
		 * Return the lease taken when none is configured: a twentieth of the limit, at least 1.
		 * @param limitForPeriod the limit
		 * @return the lease
		 */
		public static int defaultLease(int limitForPeriod) {
			return Math.max(1, limitForPeriod / 20);
		}

	}

	private static final class Lease {

		final AtomicInteger left;

		final long expires;

		Lease(int permits, long expires) {
			this.left = new AtomicInteger(permits);
			this.expires = expires;
		}

	}

}
