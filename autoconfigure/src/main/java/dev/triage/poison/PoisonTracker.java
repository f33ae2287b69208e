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

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.triage.PoisonRequestEvent;

/**
 * Tells a poison request from an outage (seed 001: "抖动不会那么执着"). Consecutive attempts of the same request
 * (fingerprint: method, full URL, body) that get a poison status are counted, within {@code ttl}; any other
 * outcome for it resets the count. When the count reaches {@code threshold} while the upstream answered some
 * other request with a 2xx within {@code healthyWithin} (see {@link #upstreamAnswersOthers}), the request is poison: published once, and refused for
 * {@code ttl}. During an outage (no 2xx for anything) nothing becomes poison: that is the breaker's job.
 * <p>
 * One Caffeine cache holds both the requests being counted and the poison ones, at most {@code maxTracked}
 * fingerprints (least recently used dropped), each expiring {@code ttl} after its first failure or its
 * poisoning. A client whose calls all succeed tracks nothing and computes no fingerprint.
 */
public final class PoisonTracker {

	private final Settings settings;

	private final LongSupplier nanoClock;

	private final Consumer<PoisonRequestEvent> publisher;

	private final Cache<String, Tracked> tracked;

	private volatile long lastSuccessNanos;

	private volatile boolean anySuccess;

	/** Method and URL of the last 2xx: references only, so that recording a success costs no hashing. */
	private volatile String lastSuccessMethod;

	private volatile String lastSuccessUrl;

	/**
	 * Create a tracker.
	 * @param settings its settings
	 * @param nanoClock the time source, {@link System#nanoTime()} in production
	 * @param publisher told once about every request that becomes poison
	 */
	public PoisonTracker(Settings settings, LongSupplier nanoClock, Consumer<PoisonRequestEvent> publisher) {
		this.settings = settings;
		this.nanoClock = nanoClock;
		this.publisher = publisher;
		Ticker ticker = nanoClock::getAsLong;
		this.tracked = Caffeine.newBuilder()
			.maximumSize(settings.maxTracked())
			.expireAfterWrite(settings.ttl())
			.ticker(ticker)
			.executor(Runnable::run)
			.build();
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
		return this.settings.enabled() && this.tracked.estimatedSize() > 0;
	}

	/**
	 * Return whether a request is poison now.
	 * @param fingerprint the request's fingerprint
	 * @return whether calls with it are refused
	 */
	public boolean isPoisoned(String fingerprint) {
		Tracked entry = this.tracked.getIfPresent(fingerprint);
		return entry != null && entry.poisoned != null;
	}

	/**
	 * Record a 2xx: the upstream is answering.
	 * @param httpMethod the method of the request that succeeded
	 * @param url its URL
	 */
	public void onSuccess(String httpMethod, String url) {
		this.lastSuccessMethod = httpMethod;
		this.lastSuccessUrl = url;
		this.lastSuccessNanos = this.nanoClock.getAsLong();
		this.anySuccess = true;
	}

	/**
	 * Record an outcome of a request that is not a poison status: its count starts over.
	 * @param fingerprint the request's fingerprint
	 */
	public void onOtherOutcome(String fingerprint) {
		this.tracked.asMap().computeIfPresent(fingerprint, (key, entry) -> (entry.poisoned != null) ? entry : null);
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
		Tracked entry = this.tracked.get(fingerprint, (key) -> new Tracked(this.nanoClock.getAsLong()));
		if (entry.poisoned != null) {
			return true;
		}
		int count = entry.failures.incrementAndGet();
		if (count < this.settings.threshold() || !upstreamAnswersOthers(entry, httpMethod, url)) {
			return false;
		}
		PoisonRequestEvent built = event.create(count);
		Tracked poison = new Tracked(entry.firstFailureNanos);
		poison.poisoned = new PoisonEntry(built.methodKey(), built.httpMethod(), built.url(), fingerprint, built.at());
		// Replacing the counting entry restarts its ttl; only the thread that replaces it publishes.
		if (this.tracked.asMap().replace(fingerprint, entry, poison)) {
			this.publisher.accept(built);
		}
		return true;
	}

	/**
	 * Return the requests that are poison now.
	 * @return the entries, oldest first
	 */
	public List<PoisonEntry> current() {
		List<PoisonEntry> entries = new ArrayList<>();
		this.tracked.asMap().values().forEach((entry) -> {
			if (entry.poisoned != null) {
				entries.add(entry.poisoned);
			}
		});
		entries.sort((a, b) -> a.since().compareTo(b.since()));
		return entries;
	}

	/**
	 * Return how many requests are being counted or refused, after pending evictions.
	 * @return the number of fingerprints held
	 */
	public long tracked() {
		this.tracked.cleanUp();
		return this.tracked.estimatedSize();
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Whether another request got a 2xx recently: one that came after this request's first counted failure (a
	 * 2xx for this request would have reset its count), or one for another method and URL. A 2xx for this very
	 * request before its failures began says nothing about other requests: an upstream that stops answering its
	 * one hot URL is an outage, not a poison request.
	 */
	private boolean upstreamAnswersOthers(Tracked entry, String httpMethod, String url) {
		long last = this.lastSuccessNanos;
		if (!this.anySuccess || this.nanoClock.getAsLong() - last > this.settings.healthyWithin().toNanos()) {
			return false;
		}
		return last - entry.firstFailureNanos > 0 || !httpMethod.equals(this.lastSuccessMethod)
				|| !url.equals(this.lastSuccessUrl);
	}

	/**
	 * Return the fingerprint of a request: SHA-256 over method, full URL and body, in hex.
	 * @param httpMethod the method
	 * @param url the full URL, query included
	 * @param body the body, may be {@code null}
	 * @return the hex digest
	 */
	public static String fingerprint(String httpMethod, String url, byte[] body) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			digest.update(httpMethod.getBytes(StandardCharsets.UTF_8));
			digest.update((byte) ' ');
			digest.update(url.getBytes(StandardCharsets.UTF_8));
			digest.update((byte) '\n');
			if (body != null) {
				digest.update(body);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

	/**
	 * A fingerprint being counted, or poison.
	 */
	private static final class Tracked {

		final AtomicInteger failures = new AtomicInteger();

		final long firstFailureNanos;

		volatile PoisonEntry poisoned;

		Tracked(long firstFailureNanos) {
			this.firstFailureNanos = firstFailureNanos;
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
