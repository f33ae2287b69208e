package dev.triage.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields a configuration layer sets for one key; {@code null} fields inherit from the rule underneath.
 *
 * @param maxAttempts total attempts including the first
 * @param backoffInitial the first wait
 * @param backoffMultiplier the growth factor of the wait
 * @param backoffMax the longest wait before jitter
 * @param backoffJitter the randomization factor, 0 to 1
 * @param retryAfter whether to honor {@code Retry-After}
 * @param retryAfterMax the longest {@code Retry-After} still retried
 * @param idempotentOnly whether only idempotent requests are retried
 * @param breaker how the outcome counts in the breaker
 * @param alert whether the final outcome is alert-worthy
 * @param fallback whether the fallback is called
 */
public record RuleOverride(Integer maxAttempts, Duration backoffInitial, Double backoffMultiplier,
		Duration backoffMax, Double backoffJitter, RetryAfterMode retryAfter, Duration retryAfterMax,
		Boolean idempotentOnly, BreakerOutcome breaker, Boolean alert, Boolean fallback) {

	/** An override that sets nothing. */
	public static final RuleOverride EMPTY = new RuleOverride(null, null, null, null, null, null, null, null, null,
			null, null);

	/**
	 * Return an override that sets every field of a rule: a built-in default row.
	 * @param rule the rule
	 * @return the override
	 */
	public static RuleOverride of(Rule rule) {
		Backoff b = rule.backoff();
		return new RuleOverride(rule.maxAttempts(), b.initial(), b.multiplier(), b.max(), b.jitter(),
				rule.retryAfter(), rule.retryAfterMax(), rule.idempotentOnly(), rule.breaker(), rule.alert(),
				rule.fallback());
	}

	/**
	 * Check every set field.
	 * @param prefix the property prefix of this rule, e.g. {@code triage.policies.503}
	 * @return this override
	 * @throws InvalidPolicyException naming the first bad property
	 */
	public RuleOverride validate(String prefix) {
		if (this.maxAttempts != null && this.maxAttempts < 1) {
			throw new InvalidPolicyException(prefix + ".max-attempts", this.maxAttempts,
					"a whole number of at least 1 (1 = never retried)");
		}
		positive(prefix + ".backoff.initial", this.backoffInitial);
		positive(prefix + ".backoff.max", this.backoffMax);
		if (this.backoffMultiplier != null && !(this.backoffMultiplier >= 1.0 && this.backoffMultiplier <= 100.0)) {
			throw new InvalidPolicyException(prefix + ".backoff.multiplier", this.backoffMultiplier,
					"a number from 1 to 100 (1 = constant wait)");
		}
		if (this.backoffJitter != null && !(this.backoffJitter >= 0.0 && this.backoffJitter <= 1.0)) {
			throw new InvalidPolicyException(prefix + ".backoff.jitter", this.backoffJitter,
					"a number from 0 to 1 (0 = no jitter, 0.5 = +/-50%)");
		}
		if (this.retryAfterMax != null && this.retryAfterMax.isNegative()) {
			throw new InvalidPolicyException(prefix + ".retry-after-max", this.retryAfterMax,
					"a duration of zero or more, e.g. 30s");
		}
		return this;
	}

	private static void positive(String property, Duration value) {
		if (value != null && (value.isNegative() || value.toMillis() < 1)) {
			throw new InvalidPolicyException(property, value, "a duration of at least 1ms, e.g. 200ms or 2s");
		}
	}

	/**
	 * Return the rule underneath with this override's set fields applied.
	 * @param base the rule inherited from
	 * @return the merged rule
	 */
	public Rule applyTo(Rule base) {
		Backoff b = base.backoff();
		Backoff backoff = (this.backoffInitial == null && this.backoffMultiplier == null && this.backoffMax == null
				&& this.backoffJitter == null) ? b
						: new Backoff(pick(this.backoffInitial, b.initial()), pick(this.backoffMultiplier, b.multiplier()),
								pick(this.backoffMax, b.max()), pick(this.backoffJitter, b.jitter()));
		if (backoff.max().compareTo(backoff.initial()) < 0) {
			backoff = new Backoff(backoff.initial(), backoff.multiplier(), backoff.initial(), backoff.jitter());
		}
		return new Rule(pick(this.maxAttempts, base.maxAttempts()), backoff, pick(this.retryAfter, base.retryAfter()),
				(this.retryAfterMax != null) ? this.retryAfterMax : base.retryAfterMax(),
				pick(this.idempotentOnly, base.idempotentOnly()), pick(this.breaker, base.breaker()),
				pick(this.alert, base.alert()), pick(this.fallback, base.fallback()));
	}

	/**
	 * Return an override whose set fields are this one's, falling back to a lower layer's.
	 * @param lower the override underneath
	 * @return the combined override
	 */
	public RuleOverride over(RuleOverride lower) {
		return new RuleOverride(pick(this.maxAttempts, lower.maxAttempts), pick(this.backoffInitial, lower.backoffInitial),
				pick(this.backoffMultiplier, lower.backoffMultiplier), pick(this.backoffMax, lower.backoffMax),
				pick(this.backoffJitter, lower.backoffJitter), pick(this.retryAfter, lower.retryAfter),
				pick(this.retryAfterMax, lower.retryAfterMax), pick(this.idempotentOnly, lower.idempotentOnly),
				pick(this.breaker, lower.breaker), pick(this.alert, lower.alert), pick(this.fallback, lower.fallback));
	}

	/**
	 * Return the property names (relative to the rule) of the fields this override sets, e.g.
	 * {@code backoff.initial}.
	 * @return the set field names, in declaration order
	 */
	public List<String> fieldsSet() {
		List<String> fields = new ArrayList<>();
		Object[] values = { this.maxAttempts, this.backoffInitial, this.backoffMultiplier, this.backoffMax,
				this.backoffJitter, this.retryAfter, this.retryAfterMax, this.idempotentOnly, this.breaker, this.alert,
				this.fallback };
		for (int i = 0; i < values.length; i++) {
			if (values[i] != null) {
				fields.add(FIELDS.get(i));
			}
		}
		return fields;
	}

	/** Every field's property name, in declaration order. */
	public static final List<String> FIELDS = List.of("max-attempts", "backoff.initial",
			"backoff.multiplier", "backoff.max", "backoff.jitter", "retry-after", "retry-after-max", "idempotent-only",
			"breaker", "alert", "fallback");

	private static <T> T pick(T value, T inherited) {
		return (value != null) ? value : inherited;
	}

}
