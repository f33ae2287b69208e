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
@ConfigurationProperties("triage")
public class TriageProperties {

	/**
	 * Whether Triage manages Feign clients.
	 */
	private boolean enabled = true;

	/**
	 * Largest part of an error body that is kept for error-type detection, fallbacks and logs; the rest is
	 * never read into memory.
	 */
	private DataSize maxBodyBytes = DataSize.ofKilobytes(64);

	/**
	 * Headers whose values are redacted in original responses, logs and the actuator endpoint.
	 */
	private List<String> sensitiveHeaders = new ArrayList<>(
			List.of("authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"));

	/**
	 * JSON pointers tried in order on a JSON error body; the first string found is the error type.
	 */
	private List<String> errorTypePointers = new ArrayList<>(List.of("/error/type", "/type", "/error/code", "/code"));

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
	 * Per-client settings keyed by the Feign client name.
	 */
	private Map<String, Client> clients = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
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

		public void setDeadline(Duration deadline) {
			this.deadline = deadline;
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
		 * Whether to retry only GET, HEAD, OPTIONS, TRACE, PUT, DELETE or requests with an Idempotency-Key.
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
		 * Growth factor of the wait, at least 1.
		 */
		private Double multiplier;

		/**
		 * Longest wait before jitter.
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

}
