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

package dev.triage.poison;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import dev.triage.PoisonRequestEvent;

/**
 * Tells a poison request from an outage (seed 001: "抖动不会那么执着"). Consecutive attempts of the same request
 * (fingerprint: method, full URL, body) that get a poison status are counted, within {@code ttl}; any other
 * outcome for it resets the count. When the count reaches {@code threshold} while the upstream answered some
 * other request with a 2xx within {@code healthyWithin} (see {@link #upstreamAnswersOthers}), the request is
 * poison: published once, and refused for {@code ttl}. During an outage (no 2xx for anything) nothing becomes
 * poison: that is the breaker's job.
 * <p>
 * One access-ordered map holds both the requests being counted and the poison ones, at most {@code maxTracked}
 * fingerprints: the least recently used is dropped first, so a request counted a moment ago is never the one
 * dropped and detection holds for every request counted within the last {@code maxTracked} distinct ones (a
 * frequency-based cache would drop a new entry between its own attempts). Each entry expires {@code ttl} after
 * its first failure or its poisoning; a second list, in the order entries were written (which, with one
 * {@code ttl}, is the order they expire in), lets expired entries go without scanning the map. One lock guards
 * both: every operation under it is O(1), and only calls of a client that has failures to count take it. A
 * client whose calls all succeed tracks nothing, takes no lock and computes no fingerprint.
 */
public final class PoisonTracker {

	private volatile Settings settings;

	private final LongSupplier nanoClock;

	private final Fingerprints fingerprints;

	private final Consumer<PoisonRequestEvent> publisher;

	private volatile long ttlNanos;

	private final ReentrantLock lock = new ReentrantLock();

	/** Access-ordered: the eldest entry is the least recently used. Guarded by {@link #lock}. */
	private final Map<String, Tracked> tracked;

	/** The entry written longest ago, first to expire, and the newest; linked through the entries. */
	private Tracked oldestWritten;

	private Tracked newestWritten;

	/** How many fingerprints are held, readable without the lock. */
	private volatile int size;

	/** The request of the last 2xx, by method and URL (references only: recording a success hashes nothing). */
	private volatile Seen lastSuccess;

	private volatile long lastSuccessNanos;

	/** When a request other than {@link #lastSuccess} last got a 2xx; {@code hasOtherSuccess} says whether one has. */
	private volatile long otherSuccessNanos;

	private volatile boolean hasOtherSuccess;

	/**
	 * Create a tracker.
	 * @param settings its settings
	 * @param nanoClock the time source, {@link System#nanoTime()} in production
	 * @param publisher told once about every request that becomes poison
	 */
	public PoisonTracker(Settings settings, LongSupplier nanoClock, Consumer<PoisonRequestEvent> publisher) {
		this(settings, nanoClock, publisher, new Fingerprints());
	}

	/**
	 * Create a tracker.
	 * @param settings its settings
	 * @param nanoClock the time source, {@link System#nanoTime()} in production
	 * @param publisher told once about every request that becomes poison
	 * @param fingerprints the application's fingerprints, shared by its clients
	 */
	public PoisonTracker(Settings settings, LongSupplier nanoClock, Consumer<PoisonRequestEvent> publisher,
			Fingerprints fingerprints) {
		this.fingerprints = fingerprints;
		this.settings = settings;
		this.nanoClock = nanoClock;
		this.publisher = publisher;
		this.ttlNanos = settings.ttl().toNanos();
		this.tracked = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Tracked> eldest) {
				if (size() <= PoisonTracker.this.settings.maxTracked()) {
					return false;
				}
				unlinkWritten(eldest.getValue());
				return true;
			}

		};
	}

	/**
	 * Return whether a status counts towards poisoning.
	 * @param status the HTTP status
	 * @return whether it is one of the poison statuses
	 */
	public boolean isPoisonStatus(int status) {
		return this.settings.enabled() && this.settings.statuses().contains(status);
	}

	/**
	 * Return whether any request is being counted or refused, so that outcomes need a fingerprint.
	 * @return whether the tracker holds anything
	 */
	public boolean tracking() {
		// Expired entries go at the next look-up under the lock, so a client that stopped failing stops paying
		// for fingerprints one call after its last entry expired.
		return this.settings.enabled() && this.size != 0;
	}

	/**
	 * Return whether a request is poison now.
	 * @param fingerprint the request's fingerprint
	 * @return whether calls with it are refused
	 */
	public boolean isPoisoned(String fingerprint) {
		if (this.size == 0) {
			return false;
		}
		this.lock.lock();
		try {
			Tracked entry = live(fingerprint, this.nanoClock.getAsLong());
			return entry != null && entry.poison;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Record a 2xx: the upstream is answering. A request is told apart from others by method and URL here, so
	 * that a client whose calls all succeed pays no hashing; the same request's 2xx coming again only moves its
	 * time, and the last 2xx of any other request is kept beside it (SPEC: "a 2xx for any other request within
	 * {@code healthy-within}, however many 2xx of this request came in between").
	 * @param httpMethod the method of the request that succeeded
	 * @param url its URL
	 */
	public void onSuccess(String httpMethod, String url) {
		long now = this.nanoClock.getAsLong();
		Seen last = this.lastSuccess;
		if (last == null || !last.is(httpMethod, url)) {
			if (last != null) {
				this.otherSuccessNanos = this.lastSuccessNanos;
				this.hasOtherSuccess = true;
			}
			this.lastSuccess = new Seen(httpMethod, url);
		}
		this.lastSuccessNanos = now;
	}

	/**
	 * Record an outcome of a request that is not a poison status: its count starts over.
	 * @param fingerprint the request's fingerprint
	 */
	public void onOtherOutcome(String fingerprint) {
		if (this.size == 0) {
			return;
		}
		this.lock.lock();
		try {
			Tracked entry = live(fingerprint, this.nanoClock.getAsLong());
			if (entry != null && !entry.poison) {
				remove(fingerprint, entry);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Record a poison status for a request and decide whether it is now poison.
	 * @param fingerprint the request's fingerprint
	 * @param httpMethod the request's method
	 * @param url the request's URL
	 * @param event builds the event, given the failure count, if the request becomes poison now
	 * @return whether the request is poison (newly or already)
	 */
	public boolean onPoisonStatus(String fingerprint, String httpMethod, String url, EventFactory event) {
		Tracked poison;
		int count;
		this.lock.lock();
		try {
			long now = this.nanoClock.getAsLong();
			Tracked entry = live(fingerprint, now);
			if (entry == null) {
				entry = new Tracked(fingerprint, now);
				this.tracked.put(fingerprint, entry);
				linkWritten(entry);
				this.size = this.tracked.size();
			}
			if (entry.poison) {
				return true;
			}
			count = ++entry.failures;
			if (count < this.settings.threshold() || !upstreamAnswersOthers(entry, httpMethod, url, now)) {
				return false;
			}
			// Poison from now on, for ttl from now: the entry is written again. Only this thread publishes.
			poison = new Tracked(fingerprint, now);
			poison.poison = true;
			poison.failures = count;
			remove(fingerprint, entry);
			this.tracked.put(fingerprint, poison);
			linkWritten(poison);
			this.size = this.tracked.size();
		}
		finally {
			this.lock.unlock();
		}
		// Built and published outside the lock: the event copies the body, and listeners may do anything.
		PoisonRequestEvent built = event.create(count);
		poison.shown = new PoisonEntry(built.methodKey(), built.httpMethod(), built.url(), fingerprint, built.at());
		this.publisher.accept(built);
		return true;
	}

	/**
	 * Return the requests that are poison now.
	 * @return the entries, oldest first
	 */
	public List<PoisonEntry> current() {
		List<PoisonEntry> entries = new ArrayList<>();
		this.lock.lock();
		try {
			expire(this.nanoClock.getAsLong());
			for (Tracked entry : this.tracked.values()) {
				PoisonEntry shown = entry.shown;
				if (entry.poison && shown != null) {
					entries.add(shown);
				}
			}
		}
		finally {
			this.lock.unlock();
		}
		entries.sort((a, b) -> a.since().compareTo(b.since()));
		return entries;
	}

	/**
	 * Return how many requests are being counted or refused, after expired ones are dropped.
	 * @return the number of fingerprints held
	 */
	public long tracked() {
		this.lock.lock();
		try {
			expire(this.nanoClock.getAsLong());
			return this.tracked.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Apply new settings and keep what is tracked (SPEC §12: the poison list carries over a reload): entries
	 * older than a shorter {@code ttl} expire, and beyond a smaller {@code max-tracked} the least recently used go.
	 * @param settings the new settings
	 */
	public void reconfigure(Settings settings) {
		this.lock.lock();
		try {
			this.settings = settings;
			this.ttlNanos = settings.ttl().toNanos();
			expire(this.nanoClock.getAsLong());
			Iterator<Map.Entry<String, Tracked>> eldest = this.tracked.entrySet().iterator();
			while (this.tracked.size() > settings.maxTracked() && eldest.hasNext()) {
				Tracked entry = eldest.next().getValue();
				eldest.remove();
				unlinkWritten(entry);
			}
			this.size = this.tracked.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Whether another request got a 2xx within {@code healthyWithin}. The last 2xx counts when it was for
	 * another method or URL, or when it came after this request's first counted failure (a 2xx for this very
	 * request would have reset its count, so it was for another body); otherwise the last 2xx of any other
	 * method and URL does, however many 2xx of this one came since. A 2xx for this very request before its
	 * failures began says nothing about other requests: an upstream that stops answering its one hot URL is an
	 * outage, not a poison request.
	 */
	private boolean upstreamAnswersOthers(Tracked entry, String httpMethod, String url, long now) {
		Seen last = this.lastSuccess;
		if (last == null) {
			return false;
		}
		long lastNanos = this.lastSuccessNanos;
		long other;
		if (!last.is(httpMethod, url) || lastNanos - entry.writtenNanos > 0) {
			other = lastNanos;
		}
		else if (this.hasOtherSuccess) {
			other = this.otherSuccessNanos;
		}
		else {
			return false;
		}
		return now - other <= this.settings.healthyWithin().toNanos();
	}

	/** The entry of a fingerprint unless it has expired (then it goes); marks it used. Under the lock. */
	private Tracked live(String fingerprint, long now) {
		expire(now);
		return this.tracked.get(fingerprint);
	}

	/** Drop the entries whose ttl has passed, oldest written first. Under the lock. */
	private void expire(long now) {
		Tracked oldest = this.oldestWritten;
		while (oldest != null && now - oldest.writtenNanos >= this.ttlNanos) {
			remove(oldest.fingerprint, oldest);
			oldest = this.oldestWritten;
		}
	}

	private void remove(String fingerprint, Tracked entry) {
		this.tracked.remove(fingerprint, entry);
		unlinkWritten(entry);
		this.size = this.tracked.size();
	}

	private void linkWritten(Tracked entry) {
		entry.older = this.newestWritten;
		if (this.newestWritten != null) {
			this.newestWritten.newer = entry;
		}
		else {
			this.oldestWritten = entry;
		}
		this.newestWritten = entry;
	}

	private void unlinkWritten(Tracked entry) {
		if (entry.older != null) {
			entry.older.newer = entry.newer;
		}
		else if (this.oldestWritten == entry) {
			this.oldestWritten = entry.newer;
		}
		if (entry.newer != null) {
			entry.newer.older = entry.older;
		}
		else if (this.newestWritten == entry) {
			this.newestWritten = entry.older;
		}
		entry.older = null;
		entry.newer = null;
	}

	/**
	 * Return the fingerprint of a request: HMAC-SHA256, keyed with this application's secret, over method, full
	 * URL and body, in hex.
	 * @param httpMethod the method
	 * @param url the full URL, query included
	 * @param body the body, may be {@code null}
	 * @return the hex digest
	 */
	public String fingerprint(String httpMethod, String url, byte[] body) {
		return this.fingerprints.of(httpMethod, url, body);
	}

	/**
	 * A request that got a 2xx, by method and URL.
	 */
	private record Seen(String method, String url) {

		boolean is(String httpMethod, String requestUrl) {
			return this.url.equals(requestUrl) && this.method.equals(httpMethod);
		}

	}

	/**
	 * A fingerprint being counted, or poison; linked to its neighbours in the order entries were written.
	 * Guarded by the tracker's lock, except {@link #shown}, set once after the request became poison.
	 */
	private static final class Tracked {

		final String fingerprint;

		final long writtenNanos;

		int failures;

		boolean poison;

		volatile PoisonEntry shown;

		Tracked older;

		Tracked newer;

		Tracked(String fingerprint, long writtenNanos) {
			this.fingerprint = fingerprint;
			this.writtenNanos = writtenNanos;
		}

	}

	/**
	 * Builds the event of a request that becomes poison.
	 */
	@FunctionalInterface
	public interface EventFactory {

		/**
		 * Build the event.
		 * @param failures the consecutive failures counted
		 * @return the event
		 */
		PoisonRequestEvent create(int failures);

	}

	/**
	 * A request that is poison now, as the actuator endpoint shows it.
	 *
	 * @param methodKey the Feign method key
	 * @param httpMethod the request method
	 * @param url the sanitized URL
	 * @param fingerprint the fingerprint
	 * @param since when it became poison
	 */
	public record PoisonEntry(String methodKey, String httpMethod, String url, String fingerprint, Instant since) {
	}

	/**
	 * A tracker's settings.
	 *
	 * @param enabled whether poison requests are detected at all
	 * @param statuses the statuses that count
	 * @param threshold consecutive failures that make a request poison
	 * @param ttl how long a request is counted and, once poison, refused
	 * @param maxTracked the most fingerprints held (least recently used dropped)
	 * @param healthyWithin how recent another request's 2xx must be for the upstream to count as answering
	 */
	public record Settings(boolean enabled, Set<Integer> statuses, int threshold, Duration ttl, long maxTracked,
			Duration healthyWithin) {

		/** The defaults: on, 500, 3 failures, 10 minutes, 10 000 fingerprints, a 2xx within the last minute. */
		public static final Settings DEFAULTS = new Settings(true, Set.of(500), 3, Duration.ofMinutes(10), 10_000,
				Duration.ofMinutes(1));

	}

}
