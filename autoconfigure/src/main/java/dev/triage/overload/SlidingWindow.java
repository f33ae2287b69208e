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

package dev.triage.overload;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * A few counters over a sliding time window, kept in a ring of buckets, one more than the window has (the period
 * the window's start falls in is kept for {@link #sumCovering}): adding is O(1) and allocates nothing
 * (but a small record when a new bucket period begins), summing reads every bucket once; both find the period of
 * a time without a division while it falls in the period last looked at. Lock-free except when a bucket turns to
 * a new period (once per bucket period); no increment for a period still in the window is lost.
 */
final class SlidingWindow {

	/** The periods a window holds. */
	private final int buckets;

	/** The ring's length: one more bucket than the window holds. */
	private final int ring;

	private final int counters;

	private final long bucketNanos;

	private final LongSupplier nanoClock;

	/** Per bucket, the absolute period index its counts belong to. */
	private final AtomicLongArray periods;

	/** Per bucket and counter, {@code bucket * counters + counter}. */
	private final AtomicLongArray counts;

	/**
	 * The period last looked at, where it begins and its bucket: most adds and sums fall in it and need no
	 * division. Any thread may replace it; a stale one is never used, its own start and length say whether a time
	 * falls in it.
	 */
	private volatile Period last;

	SlidingWindow(Duration window, int buckets, int counters, LongSupplier nanoClock) {
		this.buckets = buckets;
		this.ring = buckets + 1;
		this.counters = counters;
		this.bucketNanos = Math.max(1, window.toNanos() / buckets);
		this.nanoClock = nanoClock;
		this.periods = new AtomicLongArray(this.ring);
		for (int i = 0; i < this.ring; i++) {
			this.periods.set(i, Long.MIN_VALUE);
		}
		this.counts = new AtomicLongArray(this.ring * counters);
	}

	long now() {
		return this.nanoClock.getAsLong();
	}

	void add(int counter) {
		add(counter, now());
	}

	void add(int counter, long nanos) {
		Period period = period(nanos);
		int bucket = period.bucket;
		if (this.periods.get(bucket) < period.index) {
			turn(bucket, period.index);
		}
		this.counts.incrementAndGet(bucket * this.counters + counter);
	}

	private Period period(long nanos) {
		Period last = this.last;
		if (last != null && nanos >= last.startNanos) {
			long offset = nanos - last.startNanos;
			if (offset >= 0 && offset < this.bucketNanos) {
				return last;
			}
		}
		long index = Math.floorDiv(nanos, this.bucketNanos);
		long startNanos = nanos - Math.floorMod(nanos, this.bucketNanos);
		Period period = new Period(index, startNanos, (int) Math.floorMod(index, (long) this.ring));
		if (startNanos <= nanos) {
			// Not kept when the start is out of the clock's range (it wrapped): such a period is worked out again.
			this.last = period;
		}
		return period;
	}

	/**
	 * Give a bucket to a new period: its counts are cleared before the period is published, so that an increment
	 * made by a thread that already sees the new period is never cleared (a retry budget that lost one would allow
	 * one retry too many). Once per bucket and period, so the lock is rare.
	 */
	private synchronized void turn(int bucket, long period) {
		if (this.periods.get(bucket) < period) {
			for (int c = 0; c < this.counters; c++) {
				this.counts.set(bucket * this.counters + c, 0);
			}
			this.periods.set(bucket, period);
		}
	}

	/**
	 * Return a counter's counts in the window ending now, by whole periods: the current one and the ones before it
	 * that lie wholly inside the window. Never more than the window holds (the period the window's start falls in
	 * is left out).
	 */
	long sum(int counter) {
		return sum(counter, now());
	}

	long sum(int counter, long nanos) {
		return sum(counter, nanos, this.buckets);
	}

	/**
	 * Return a counter's counts in the window ending now and in the rest of the period the window's start falls
	 * in: never less than the window holds.
	 */
	long sumCovering(int counter) {
		return sumCovering(counter, now());
	}

	long sumCovering(int counter, long nanos) {
		return sum(counter, nanos, this.ring);
	}

	private long sum(int counter, long nanos, int span) {
		long period = period(nanos).index;
		long total = 0;
		for (int bucket = 0; bucket < this.ring; bucket++) {
			long owner = this.periods.get(bucket);
			if (owner > period - span && owner <= period) {
				total += this.counts.get(bucket * this.counters + counter);
			}
		}
		return total;
	}

	/**
	 * A bucket period: its absolute index, where it begins on the clock's scale, its bucket.
	 */
	private record Period(long index, long startNanos, int bucket) {
	}

}
