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

package dev.triage.policy;

import java.time.Duration;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The fields of a {@link Rule}, each described once: its property name, how to read it from a rule, how to set
 * it on a builder, and what values are allowed. Overrides, layering, validation and the actuator endpoint all
 * work through this list, so a new field is added here (and to {@link Rule} and the properties) only.
 */
public enum RuleField {

	/** Total attempts including the first. */
	MAX_ATTEMPTS("max-attempts", Integer.class, Rule::maxAttempts, (b, v) -> b.maxAttempts((Integer) v)) {
		@Override
		void check(String property, Object value) {
			if ((Integer) value < 1) {
				throw new InvalidPolicyException(property, value, "a whole number of at least 1 (1 = never retried)");
			}
		}
	},

	/** The first wait. */
	BACKOFF_INITIAL("backoff.initial", Duration.class, (r) -> r.backoff().initial(),
			(b, v) -> b.backoffInitial((Duration) v)) {
		@Override
		void check(String property, Object value) {
			atLeastOneMilli(property, (Duration) value);
		}
	},

	/** The growth factor of the wait. */
	BACKOFF_MULTIPLIER("backoff.multiplier", Double.class, (r) -> r.backoff().multiplier(),
			(b, v) -> b.backoffMultiplier((Double) v)) {
		@Override
		void check(String property, Object value) {
			double multiplier = (Double) value;
			if (!(multiplier >= 1.0 && multiplier <= 100.0)) {
				throw new InvalidPolicyException(property, value, "a number from 1 to 100 (1 = constant wait)");
			}
		}
	},

	/** The longest wait before jitter. */
	BACKOFF_MAX("backoff.max", Duration.class, (r) -> r.backoff().max(), (b, v) -> b.backoffMax((Duration) v)) {
		@Override
		void check(String property, Object value) {
			atLeastOneMilli(property, (Duration) value);
		}
	},

	/** The randomization factor, 0 to 1. */
	BACKOFF_JITTER("backoff.jitter", Double.class, (r) -> r.backoff().jitter(), (b, v) -> b.backoffJitter((Double) v)) {
		@Override
		void check(String property, Object value) {
			double jitter = (Double) value;
			if (!(jitter >= 0.0 && jitter <= 1.0)) {
				throw new InvalidPolicyException(property, value, "a number from 0 to 1 (0 = no jitter, 0.5 = +/-50%)");
			}
		}
	},

	/** Whether to honor {@code Retry-After}. */
	RETRY_AFTER("retry-after", RetryAfterMode.class, Rule::retryAfter, (b, v) -> b.retryAfter((RetryAfterMode) v)),

	/** The longest {@code Retry-After} still retried. */
	RETRY_AFTER_MAX("retry-after-max", Duration.class, Rule::retryAfterMax, (b, v) -> b.retryAfterMax((Duration) v)) {
		@Override
		void check(String property, Object value) {
			if (((Duration) value).isNegative()) {
				throw new InvalidPolicyException(property, value, "a duration of zero or more, e.g. 30s");
			}
		}
	},

	/** Whether only idempotent requests are retried. */
	IDEMPOTENT_ONLY("idempotent-only", Boolean.class, Rule::idempotentOnly, (b, v) -> b.idempotentOnly((Boolean) v)),

	/** How the outcome counts in the breaker. */
	BREAKER("breaker", BreakerOutcome.class, Rule::breaker, (b, v) -> b.breaker((BreakerOutcome) v)),

	/** Whether the final outcome is alert-worthy. */
	ALERT("alert", Boolean.class, Rule::alert, (b, v) -> b.alert((Boolean) v)),

	/** Whether the fallback is called. */
	FALLBACK("fallback", Boolean.class, Rule::fallback, (b, v) -> b.fallback((Boolean) v)),

	/** Whether a valid {@code Retry-After} pauses the upstream. */
	PAUSE("pause", Boolean.class, Rule::pause, (b, v) -> b.pause((Boolean) v)),

	/** Whether the outcome is a rejection for load, for adaptive throttling. */
	OVERLOAD("overload", Boolean.class, Rule::overload, (b, v) -> b.overload((Boolean) v)),

	/** Whether the next attempt goes to the next channel. */
	FAILOVER("failover", Boolean.class, Rule::failover, (b, v) -> b.failover((Boolean) v));

	private final String property;

	private final Class<?> type;

	private final Function<Rule, Object> getter;

	private final BiConsumer<Rule.Builder, Object> setter;

	RuleField(String property, Class<?> type, Function<Rule, Object> getter, BiConsumer<Rule.Builder, Object> setter) {
		this.property = property;
		this.type = type;
		this.getter = getter;
		this.setter = setter;
	}

	/**
	 * Return the property name relative to the rule, e.g. {@code backoff.initial}.
	 * @return the property name
	 */
	public String property() {
		return this.property;
	}

	/**
	 * Return this field's value in a rule.
	 * @param rule the rule
	 * @return the value, {@code null} only for an unset {@code retry-after-max}
	 */
	public Object get(Rule rule) {
		return this.getter.apply(rule);
	}

	/**
	 * Return a value as the endpoint and logs show it: durations in milliseconds, enums in lower case.
	 * @param value the value, may be {@code null}
	 * @return the display value
	 */
	public Object display(Object value) {
		if (value == null) {
			return "none";
		}
		if (value instanceof Duration duration) {
			return duration.toMillis() + "ms";
		}
		if (value instanceof Enum<?> e) {
			return e.name().toLowerCase(Locale.ROOT);
		}
		return value;
	}

	void set(Rule.Builder builder, Object value) {
		this.setter.accept(builder, value);
	}

	void validate(String property, Object value) {
		if (!this.type.isInstance(value)) {
			throw new IllegalArgumentException(this.property + " takes a " + this.type.getSimpleName() + ", not " + value);
		}
		check(property, value);
	}

	void check(String property, Object value) {
	}

	private static void atLeastOneMilli(String property, Duration value) {
		if (value.isNegative() || value.toMillis() < 1) {
			throw new InvalidPolicyException(property, value, "a duration of at least 1ms, e.g. 200ms or 2s");
		}
	}

}
