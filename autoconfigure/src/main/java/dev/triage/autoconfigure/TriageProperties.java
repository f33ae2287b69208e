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

package dev.triage.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.RetryAfterMode;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for Triage's failure policy of Feign clients.
 */
@ConfigurationProperties(prefix = "triage", ignoreUnknownFields = false)
public class TriageProperties {

	/**
	 * Headers redacted whatever {@code triage.sensitive-headers} says.
	 */
	public static final List<String> BUILT_IN_SENSITIVE_HEADERS = List.of("authorization", "proxy-authorization",
			"cookie", "set-cookie", "x-api-key");

	/**
	 * Whether Triage manages clients (Feign clients and HTTP service clients); taken at the next start.
	 */
	private boolean enabled = true;

	/**
	 * Largest part of an error body that is kept for error-type detection, fallbacks and logs; the rest is
	 * never read into memory.
	 */
	private DataSize maxBodyBytes = DataSize.ofKilobytes(64);

	/**
	 * Expected final failures (alert: false, e.g. a 404) and refused calls are logged at most once per client and
	 * code (or refusal reason) in this window, with the count since the previous line; zero logs every call.
	 */
	private Duration callLogWindow = Duration.ofSeconds(10);

	/**
	 * Headers whose values are redacted in original responses, logs and the actuator endpoint, in addition to
	 * the built-in ones (authorization, proxy-authorization, cookie, set-cookie, x-api-key), which are always
	 * redacted.
	 */
	private List<String> sensitiveHeaders = new ArrayList<>();

	/**
	 * JSON pointers tried in order on a JSON error body; the first string found is the error type.
	 */
	private List<String> errorTypePointers = new ArrayList<>(List.of("/error/type", "/type", "/error/code", "/code"));

	/**
	 * HTTP methods that rules with idempotent-only retry without an Idempotency-Key header, out of GET, HEAD, POST,
	 * PUT, PATCH, DELETE, OPTIONS and TRACE; add PUT and DELETE for APIs that keep RFC 9110's idempotency.
	 */
	private List<String> idempotentMethods = new ArrayList<>(List.of("GET", "HEAD", "OPTIONS", "TRACE"));

	/**
	 * Longest pause of an upstream that answered with Retry-After on a pausing rule (429, 498, 503 by default),
	 * however long it asked for.
	 */
	private Duration pauseMax = Duration.ofMinutes(10);

	/**
	 * Retry budget of every client: caps retries to a share of first attempts plus a reserve.
	 */
	private final RetryBudget retryBudget = new RetryBudget();

	/**
	 * Adaptive throttling of every client: refuses locally while the upstream keeps rejecting for load.
	 */
	private final Throttle throttle = new Throttle();

	/**
	 * Poison-request detection of every client: the same request failing again and again while the upstream
	 * answers others goes to a dead letter.
	 */
	private final Poison poison = new Poison();

	/**
	 * Pooled connections of Spring Cloud OpenFeign's Apache HttpClient 5 client.
	 */
	private final ConnectionPool connectionPool = new ConnectionPool();

	/**
	 * What the instances of this application share through a store (SPEC §13, docs/fleet.md).
	 */
	private final Fleet fleet = new Fleet();

	/**
	 * Global policy rules keyed by exact status ("503"), status class ("5xx"), transport failure
	 * ("read-timeout") or "unknown-status".
	 */
	private Map<String, Rule> policies = new LinkedHashMap<>();

	/**
	 * Global rules keyed by the error type read from the body; they beat every status key.
	 */
	private Map<String, Rule> errorTypes = new LinkedHashMap<>();

	/**
	 * Per-client settings keyed by the client name: a Feign client's name, an HTTP service group's, or the name
	 * given to TriageHttpServices.
	 */
	private Map<String, Client> clients = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public Duration getPauseMax() {
		return this.pauseMax;
	}

	public void setPauseMax(Duration pauseMax) {
		this.pauseMax = pauseMax;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public DataSize getMaxBodyBytes() {
		return this.maxBodyBytes;
	}

	public void setMaxBodyBytes(DataSize maxBodyBytes) {
		this.maxBodyBytes = maxBodyBytes;
	}

	public Duration getCallLogWindow() {
		return this.callLogWindow;
	}

	public void setCallLogWindow(Duration callLogWindow) {
		this.callLogWindow = callLogWindow;
	}

	public List<String> getSensitiveHeaders() {
		return this.sensitiveHeaders;
	}

	public void setSensitiveHeaders(List<String> sensitiveHeaders) {
		this.sensitiveHeaders = sensitiveHeaders;
	}

	public List<String> getErrorTypePointers() {
		return this.errorTypePointers;
	}

	public void setErrorTypePointers(List<String> errorTypePointers) {
		this.errorTypePointers = errorTypePointers;
	}

	public List<String> getIdempotentMethods() {
		return this.idempotentMethods;
	}

	public void setIdempotentMethods(List<String> idempotentMethods) {
		this.idempotentMethods = idempotentMethods;
	}

	public RetryBudget getRetryBudget() {
		return this.retryBudget;
	}

	public Throttle getThrottle() {
		return this.throttle;
	}

	public Poison getPoison() {
		return this.poison;
	}

	public ConnectionPool getConnectionPool() {
		return this.connectionPool;
	}

	public Fleet getFleet() {
		return this.fleet;
	}

	public Map<String, Rule> getPolicies() {
		return this.policies;
	}

	public void setPolicies(Map<String, Rule> policies) {
		this.policies = policies;
	}

	public Map<String, Rule> getErrorTypes() {
		return this.errorTypes;
	}

	public void setErrorTypes(Map<String, Rule> errorTypes) {
		this.errorTypes = errorTypes;
	}

	public Map<String, Client> getClients() {
		return this.clients;
	}

	public void setClients(Map<String, Client> clients) {
		this.clients = clients;
	}

	/**
	 * Settings of one Feign client.
	 */
	public static class Client {

		/**
		 * Whether Triage manages this client.
		 */
		private boolean enabled = true;

		/**
		 * Total time for one call across all attempts; no retry is made whose wait would cross it.
		 */
		private Duration deadline;

		/**
		 * Longest pause of this client's upstream after a Retry-After; left out, triage.pause-max.
		 */
		private Duration pauseMax;

		/**
		 * Alternatives to the client's own URL (the channel "primary"), in order: channel name to base URL, which
		 * replaces the primary's base URL in a request moved to the channel.
		 */
		private Map<String, String> channels = new LinkedHashMap<>();

		/**
		 * Retry budget of this client; fields left out take the global triage.retry-budget ones.
		 */
		private final RetryBudget retryBudget = new RetryBudget();

		/**
		 * Adaptive throttling of this client; fields left out take the global triage.throttle ones.
		 */
		private final Throttle throttle = new Throttle();

		/**
		 * Poison-request detection of this client; fields left out take the global triage.poison ones.
		 */
		private final Poison poison = new Poison();

		/**
		 * A limit on this client's attempts shared by every instance of the fleet (triage.fleet.store).
		 */
		private final FleetRateLimit fleetRateLimit = new FleetRateLimit();

		/**
		 * Policy rules of this client, consulted before the global ones.
		 */
		private Map<String, Rule> policies = new LinkedHashMap<>();

		/**
		 * Error-type rules of this client, consulted before the global ones.
		 */
		private Map<String, Rule> errorTypes = new LinkedHashMap<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getDeadline() {
			return this.deadline;
		}

		public Duration getPauseMax() {
			return this.pauseMax;
		}

		public void setPauseMax(Duration pauseMax) {
			this.pauseMax = pauseMax;
		}

		public void setDeadline(Duration deadline) {
			this.deadline = deadline;
		}

		public Map<String, String> getChannels() {
			return this.channels;
		}

		public void setChannels(Map<String, String> channels) {
			this.channels = channels;
		}

		public RetryBudget getRetryBudget() {
			return this.retryBudget;
		}

		public Throttle getThrottle() {
			return this.throttle;
		}

		public Poison getPoison() {
			return this.poison;
		}

		public FleetRateLimit getFleetRateLimit() {
			return this.fleetRateLimit;
		}

		public Map<String, Rule> getPolicies() {
			return this.policies;
		}

		public void setPolicies(Map<String, Rule> policies) {
			this.policies = policies;
		}

		public Map<String, Rule> getErrorTypes() {
			return this.errorTypes;
		}

		public void setErrorTypes(Map<String, Rule> errorTypes) {
			this.errorTypes = errorTypes;
		}

	}

	/**
	 * One rule of the policy table; fields left out inherit from the rule it overrides.
	 */
	public static class Rule {

		/**
		 * Total attempts including the first; 1 means never retried.
		 */
		private Integer maxAttempts;

		/**
		 * Exponential backoff between attempts.
		 */
		private final Backoff backoff = new Backoff();

		/**
		 * Whether to honor or ignore the Retry-After header (seconds or HTTP-date).
		 */
		private RetryAfterMode retryAfter;

		/**
		 * Longest Retry-After that is still retried; a server asking for longer fails fast.
		 */
		private Duration retryAfterMax;

		/**
		 * Whether to retry only requests whose method is in triage.idempotent-methods or that carry an
		 * Idempotency-Key header.
		 */
		private Boolean idempotentOnly;

		/**
		 * How this outcome counts in the upstream's circuit breaker.
		 */
		private BreakerOutcome breaker;

		/**
		 * Whether a final outcome of this kind is alert-worthy (metrics tag, WARN log).
		 */
		private Boolean alert;

		/**
		 * Whether the fallback is called for a final outcome of this kind.
		 */
		private Boolean fallback;

		/**
		 * Whether an outcome of this kind with a valid Retry-After (up to retry-after-max) pauses the whole upstream
		 * until then, so that other calls are refused at once instead of piling on.
		 */
		private Boolean pause;

		/**
		 * Whether the upstream rejected this attempt for load, so that it counts as a rejection for adaptive
		 * throttling.
		 */
		private Boolean overload;

		/**
		 * Whether the next attempt of the call goes at once to the next channel, without waiting.
		 */
		private Boolean failover;

		public Integer getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Backoff getBackoff() {
			return this.backoff;
		}

		public RetryAfterMode getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(RetryAfterMode retryAfter) {
			this.retryAfter = retryAfter;
		}

		public Duration getRetryAfterMax() {
			return this.retryAfterMax;
		}

		public void setRetryAfterMax(Duration retryAfterMax) {
			this.retryAfterMax = retryAfterMax;
		}

		public Boolean getIdempotentOnly() {
			return this.idempotentOnly;
		}

		public void setIdempotentOnly(Boolean idempotentOnly) {
			this.idempotentOnly = idempotentOnly;
		}

		public BreakerOutcome getBreaker() {
			return this.breaker;
		}

		public void setBreaker(BreakerOutcome breaker) {
			this.breaker = breaker;
		}

		public Boolean getAlert() {
			return this.alert;
		}

		public void setAlert(Boolean alert) {
			this.alert = alert;
		}

		public Boolean getFallback() {
			return this.fallback;
		}

		public void setFallback(Boolean fallback) {
			this.fallback = fallback;
		}

		public Boolean getPause() {
			return this.pause;
		}

		public void setPause(Boolean pause) {
			this.pause = pause;
		}

		public Boolean getOverload() {
			return this.overload;
		}

		public void setOverload(Boolean overload) {
			this.overload = overload;
		}

		public Boolean getFailover() {
			return this.failover;
		}

		public void setFailover(Boolean failover) {
			this.failover = failover;
		}

	}

	/**
	 * Exponential backoff: wait n = min(initial x multiplier^(n-1), max), then randomized by +/- jitter.
	 */
	public static class Backoff {

		/**
		 * Wait before the first retry.
		 */
		private Duration initial;

		/**
		 * Growth factor of the wait from one retry to the next, from 1 to 100.
		 */
		private Double multiplier;

		/**
		 * Longest wait between attempts before jitter.
		 */
		private Duration max;

		/**
		 * Randomization factor from 0 to 1: the wait moves by up to this fraction of itself.
		 */
		private Double jitter;

		public Duration getInitial() {
			return this.initial;
		}

		public void setInitial(Duration initial) {
			this.initial = initial;
		}

		public Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(Double multiplier) {
			this.multiplier = multiplier;
		}

		public Duration getMax() {
			return this.max;
		}

		public void setMax(Duration max) {
			this.max = max;
		}

		public Double getJitter() {
			return this.jitter;
		}

		public void setJitter(Double jitter) {
			this.jitter = jitter;
		}

	}

	/**
	 * Retry budget: within any sliding window, retries are at most min-retries-per-second x window + ratio x
	 * first attempts. Fields left unset take the layer underneath (client, then global, then the defaults).
	 */
	public static class RetryBudget {

		/**
		 * Whether retries are budgeted (default true).
		 */
		private Boolean enabled;

		/**
		 * Retries allowed per first attempt in the window (default 0.2).
		 */
		private Double ratio;

		/**
		 * Retries allowed per second of the window whatever the load (default 10).
		 */
		private Double minRetriesPerSecond;

		/**
		 * Sliding window the budget is counted over (default 10s).
		 */
		private Duration window;

		public Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

		public Double getRatio() {
			return this.ratio;
		}

		public void setRatio(Double ratio) {
			this.ratio = ratio;
		}

		public Double getMinRetriesPerSecond() {
			return this.minRetriesPerSecond;
		}

		public void setMinRetriesPerSecond(Double minRetriesPerSecond) {
			this.minRetriesPerSecond = minRetriesPerSecond;
		}

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

	}

	/**
	 * Adaptive throttling (Google SRE, "Handling Overload"): refuse locally with probability
	 * min(max-drop-probability, max(0, (requests - k x accepts) / (requests + 1))). Fields left unset take the
	 * layer underneath (client, then global, then the defaults).
	 */
	public static class Throttle {

		/**
		 * Whether the client throttles itself (default true).
		 */
		private Boolean enabled;

		/**
		 * Requests tolerated per accepted one before refusing; 2 refuses once fewer than half are accepted
		 * (default 2.0).
		 */
		private Double k;

		/**
		 * Sliding window requests and accepts are counted over (default 2m).
		 */
		private Duration window;

		/**
		 * Requests the window must hold before anything is refused (default 20).
		 */
		private Long minRequests;

		/**
		 * Highest share of attempts ever refused, so that recovery is seen (default 0.9).
		 */
		private Double maxDropProbability;

		public Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

		public Double getK() {
			return this.k;
		}

		public void setK(Double k) {
			this.k = k;
		}

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public Long getMinRequests() {
			return this.minRequests;
		}

		public void setMinRequests(Long minRequests) {
			this.minRequests = minRequests;
		}

		public Double getMaxDropProbability() {
			return this.maxDropProbability;
		}

		public void setMaxDropProbability(Double maxDropProbability) {
			this.maxDropProbability = maxDropProbability;
		}

	}

	/**
	 * Poison requests: consecutive failures of the same request (method, full URL, body) with a poison status,
	 * while the upstream answers other requests, make it poison: published as a PoisonRequestEvent once, refused
	 * for the ttl. Fields left unset take the layer underneath (client, then global, then the defaults).
	 */
	public static class Poison {

		/**
		 * Whether poison requests are detected (default true).
		 */
		private Boolean enabled;

		/**
		 * Statuses that count towards poisoning (default 500).
		 */
		private List<Integer> statuses;

		/**
		 * Consecutive failures that make a request poison (default 3).
		 */
		private Integer threshold;

		/**
		 * How long failures are counted and a poison request is refused (default 10m).
		 */
		private Duration ttl;

		/**
		 * Most request fingerprints held per client, least recently used dropped (default 10000).
		 */
		private Long maxTracked;

		/**
		 * How recent another request's 2xx must be for the upstream to count as answering; without one, nothing
		 * becomes poison (default 1m).
		 */
		private Duration healthyWithin;

		public Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

		public List<Integer> getStatuses() {
			return this.statuses;
		}

		public void setStatuses(List<Integer> statuses) {
			this.statuses = statuses;
		}

		public Integer getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Integer threshold) {
			this.threshold = threshold;
		}

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public Long getMaxTracked() {
			return this.maxTracked;
		}

		public void setMaxTracked(Long maxTracked) {
			this.maxTracked = maxTracked;
		}

		public Duration getHealthyWithin() {
			return this.healthyWithin;
		}

		public void setHealthyWithin(Duration healthyWithin) {
			this.healthyWithin = healthyWithin;
		}

	}

	/**
	 * How pooled connections are kept healthy.
	 */
	public static class ConnectionPool {

		static final Duration DEFAULT_VALIDATE_AFTER_INACTIVITY = Duration.ofSeconds(1);

		/**
		 * Idle time after which a pooled connection is checked before a request is written on it, so that one the
		 * server closed meanwhile is replaced; the check costs at most a millisecond.
		 */
		private Duration validateAfterInactivity = DEFAULT_VALIDATE_AFTER_INACTIVITY;

		/**
		 * Idle time after which pooled connections are closed in the background; 0 keeps them.
		 */
		private Duration evictIdleAfter = Duration.ofSeconds(30);

		public Duration getValidateAfterInactivity() {
			return this.validateAfterInactivity;
		}

		public void setValidateAfterInactivity(Duration validateAfterInactivity) {
			this.validateAfterInactivity = validateAfterInactivity;
		}

		public Duration getEvictIdleAfter() {
			return this.evictIdleAfter;
		}

		public void setEvictIdleAfter(Duration evictIdleAfter) {
			this.evictIdleAfter = evictIdleAfter;
		}

	}


	/**
	 * What the instances of this application share: nothing ({@code local}) or pauses and fleet rate limits in
	 * the application's Redis ({@code redis}).
	 */
	public static class Fleet {

		/**
		 * Where shared state is kept: local (nothing is shared) or redis (the Spring Data Redis connection).
		 */
		private FleetStoreType store = FleetStoreType.LOCAL;

		/**
		 * Prefix of every Redis key and channel (default "triage:" + spring.application.name + ":").
		 */
		private String keyPrefix;

		/**
		 * Longest a caller waits for a Redis command before it falls back to local protection.
		 */
		private Duration timeout = Duration.ofMillis(50);

		/**
		 * Instances in the fleet: without Redis each one allows limit-for-period divided by this.
		 */
		private int instances = 1;

		public FleetStoreType getStore() {
			return this.store;
		}

		public void setStore(FleetStoreType store) {
			this.store = store;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getInstances() {
			return this.instances;
		}

		public void setInstances(int instances) {
			this.instances = instances;
		}

	}

	/**
	 * Where the fleet's shared state is kept.
	 */
	public enum FleetStoreType {

		/** Nothing is shared. */
		LOCAL,

		/** The application's Spring Data Redis connection. */
		REDIS

	}

	/**
	 * A token bucket per client shared by the fleet: limit-for-period attempts per limit-refresh-period, taken
	 * lease permits at a time.
	 */
	public static class FleetRateLimit {

		/**
		 * Attempts the whole fleet may send per period; unset for no fleet limit.
		 */
		private Integer limitForPeriod;

		/**
		 * The period (default 1s).
		 */
		private Duration limitRefreshPeriod;

		/**
		 * Permits an instance takes per Redis round trip (default limit-for-period / 20, at least 1).
		 */
		private Integer lease;

		public Integer getLimitForPeriod() {
			return this.limitForPeriod;
		}

		public void setLimitForPeriod(Integer limitForPeriod) {
			this.limitForPeriod = limitForPeriod;
		}

		public Duration getLimitRefreshPeriod() {
			return this.limitRefreshPeriod;
		}

		public void setLimitRefreshPeriod(Duration limitRefreshPeriod) {
			this.limitRefreshPeriod = limitRefreshPeriod;
		}

		public Integer getLease() {
			return this.lease;
		}

		public void setLease(Integer lease) {
			this.lease = lease;
		}

	}

}
