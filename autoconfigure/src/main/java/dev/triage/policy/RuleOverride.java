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

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * The fields one configuration layer sets for one key; fields it does not set inherit from the rule
 * underneath. Immutable.
 */
public final class RuleOverride {

	/** An override that sets nothing. */
	public static final RuleOverride EMPTY = new RuleOverride(new EnumMap<>(RuleField.class));

	private final Map<RuleField, Object> values;

	private RuleOverride(EnumMap<RuleField, Object> values) {
		this.values = Collections.unmodifiableMap(values);
	}

	/**
	 * Return a builder of an override.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return an override that sets every field of a rule.
	 * @param rule the rule
	 * @return the override
	 */
	public static RuleOverride of(Rule rule) {
		Builder builder = builder();
		for (RuleField field : RuleField.values()) {
			builder.set(field, field.get(rule));
		}
		return builder.build();
	}

	/**
	 * Return the value this override sets for a field.
	 * @param field the field
	 * @return the value, {@code null} when not set
	 */
	public Object get(RuleField field) {
		return this.values.get(field);
	}

	/**
	 * Return the set fields with their values, in declaration order.
	 * @return the values
	 */
	public Map<RuleField, Object> values() {
		return this.values;
	}

	/**
	 * Return the fields this override sets, in declaration order.
	 * @return the set fields
	 */
	public Set<RuleField> fieldsSet() {
		return this.values.keySet();
	}

	/**
	 * Check every set field.
	 * @param prefix the property prefix of this rule, e.g. {@code triage.policies.503}
	 * @return this override
	 * @throws InvalidPolicyException naming the first bad property
	 */
	public RuleOverride validate(String prefix) {
		this.values.forEach((field, value) -> field.validate(prefix + "." + field.property(), value));
		return this;
	}

	/**
	 * Return the rule underneath with this override's set fields applied.
	 * @param base the rule inherited from
	 * @return the merged rule
	 */
	public Rule applyTo(Rule base) {
		if (this.values.isEmpty()) {
			return base;
		}
		Rule.Builder builder = base.toBuilder();
		this.values.forEach((field, value) -> field.set(builder, value));
		return builder.build();
	}

	/**
	 * Return an override whose set fields are this one's, falling back to a lower layer's.
	 * @param lower the override underneath
	 * @return the combined override
	 */
	public RuleOverride over(RuleOverride lower) {
		EnumMap<RuleField, Object> merged = new EnumMap<>(RuleField.class);
		merged.putAll(lower.values);
		merged.putAll(this.values);
		return new RuleOverride(merged);
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof RuleOverride that && this.values.equals(that.values);
	}

	@Override
	public int hashCode() {
		return this.values.hashCode();
	}

	@Override
	public String toString() {
		return "RuleOverride" + this.values;
	}

	/**
	 * Collects the fields of an override; {@code null} values are left unset.
	 */
	public static final class Builder {

		private final EnumMap<RuleField, Object> values = new EnumMap<>(RuleField.class);

		private Builder() {
		}

		/**
		 * Set a field.
		 * @param field the field
		 * @param value its value, {@code null} to leave it unset
		 * @return this builder
		 */
		public Builder set(RuleField field, Object value) {
			if (value != null) {
				this.values.put(field, value);
			}
			return this;
		}

		/**
		 * Build the override.
		 * @return the override
		 */
		public RuleOverride build() {
			return new RuleOverride(new EnumMap<>(this.values));
		}

	}

}
