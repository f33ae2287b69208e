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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.triage.TransportFailure;

/**
 * The resolved policy of one Feign client: every status and transport failure mapped to its {@link Rule}.
 * <p>
 * Resolution, most specific first: error type, exact status, status class (IANA-registered codes only),
 * {@code unknown-status}. Each key's rule is the built-in default, then the global layer, then the client
 * layer; a field a layer leaves out inherits from the layer underneath, and a key with no built-in row
 * inherits from the rule the status would otherwise resolve to. Everything except error-type merges is
 * computed here, once, so a lookup is an array read.
 */
public final class PolicyTable {

	private static final int MAX_STATUS = 999;

	private final Map<PolicyKey, RuleOverride> global;

	private final Map<PolicyKey, RuleOverride> client;

	private final Rule[] byStatus = new Rule[MAX_STATUS + 1];

	private final PolicyKey[] keyByStatus = new PolicyKey[MAX_STATUS + 1];

	private final Rule unknown;

	private final Rule streamError;

	private final Map<TransportFailure, Rule> byTransport = new EnumMap<>(TransportFailure.class);

	private final Map<String, RuleOverride> errorTypes;

	private final Map<String, RuleOverride> globalTypes;

	private final Map<String, RuleOverride> clientTypes;

	private PolicyTable(Map<PolicyKey, RuleOverride> global, Map<PolicyKey, RuleOverride> client,
			Map<String, RuleOverride> globalTypes, Map<String, RuleOverride> clientTypes) {
		this.global = global;
		this.client = client;
		this.globalTypes = globalTypes;
		this.clientTypes = clientTypes;
		Map<String, RuleOverride> types = new LinkedHashMap<>(globalTypes);
		clientTypes.forEach((type, override) -> types.merge(type, override, (lower, upper) -> upper.over(lower)));
		this.errorTypes = Collections.unmodifiableMap(types);
		this.unknown = layered(PolicyKey.UNKNOWN_STATUS, null);
		this.streamError = layered(PolicyKey.STREAM_ERROR, this.unknown);
		Rule[] classes = { null, null, null, layered(PolicyKey.statusClass(3), this.unknown),
				layered(PolicyKey.statusClass(4), this.unknown), layered(PolicyKey.statusClass(5), this.unknown) };
		for (int status = 100; status <= MAX_STATUS; status++) {
			int digit = status / 100;
			boolean inClass = HttpStatuses.isRegistered(status) && digit >= 3 && digit <= 5;
			PolicyKey exact = PolicyKey.status(status);
			this.byStatus[status] = layered(exact, inClass ? classes[digit] : this.unknown);
			boolean hasExact = DefaultPolicies.table().containsKey(exact) || global.containsKey(exact)
					|| client.containsKey(exact);
			this.keyByStatus[status] = hasExact ? exact : inClass ? PolicyKey.statusClass(digit) : PolicyKey.UNKNOWN_STATUS;
		}
		for (TransportFailure failure : TransportFailure.values()) {
			this.byTransport.put(failure, layered(PolicyKey.transport(failure), this.unknown));
		}
	}

	/**
	 * Return a builder for a table on top of the built-in defaults.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the table of the built-in defaults alone.
	 * @return the default table
	 */
	public static PolicyTable defaults() {
		return builder().build();
	}

	/**
	 * Return the rule for a response.
	 * @param status the HTTP status
	 * @param errorType the error type read from the body, or {@code null}
	 * @return the rule
	 */
	public Rule forStatus(int status, String errorType) {
		Rule statusRule = (status >= 100 && status <= MAX_STATUS) ? this.byStatus[status] : this.unknown;
		if (errorType != null) {
			RuleOverride typed = this.errorTypes.get(errorType);
			if (typed != null) {
				return typed.applyTo(statusRule);
			}
		}
		return statusRule;
	}

	/**
	 * Return the rule for an error event inside a 2xx stream: its error type's rule when there is one (left-out
	 * fields from {@code stream-error}), else the {@code stream-error} row.
	 * @param errorType the error type read from the event, or {@code null}
	 * @return the rule
	 */
	public Rule forStreamError(String errorType) {
		if (errorType != null) {
			RuleOverride typed = this.errorTypes.get(errorType);
			if (typed != null) {
				return typed.applyTo(this.streamError);
			}
		}
		return this.streamError;
	}

	/**
	 * Return the rule for a transport failure.
	 * @param failure the failure
	 * @return the rule
	 */
	public Rule forTransport(TransportFailure failure) {
		return this.byTransport.get(failure);
	}

	/**
	 * Return the key a status resolves to (ignoring error types), for tags and logs.
	 * @param status the HTTP status
	 * @return the most specific key that has a rule for the status
	 */
	public PolicyKey keyFor(int status) {
		return (status >= 100 && status <= MAX_STATUS) ? this.keyByStatus[status] : PolicyKey.UNKNOWN_STATUS;
	}

	/**
	 * Return whether an error type has a rule of its own.
	 * @param errorType the error type
	 * @return whether it is configured
	 */
	public boolean hasErrorType(String errorType) {
		return errorType != null && this.errorTypes.containsKey(errorType);
	}

	/**
	 * Return every key this table has a rule for: the built-in rows and every configured key.
	 * @return the keys, built-in rows first
	 */
	public Set<PolicyKey> keys() {
		Set<PolicyKey> keys = new LinkedHashSet<>(DefaultPolicies.table().keySet());
		keys.addAll(this.global.keySet());
		keys.addAll(this.client.keySet());
		return keys;
	}

	/**
	 * Return the resolved rule of a key with the layer each field came from.
	 * @param key the key
	 * @return the rule and, per field, {@code default}, {@code global} or {@code client}
	 */
	public ExplainedRule explain(PolicyKey key) {
		Rule defaultRule = DefaultPolicies.table().get(key);
		Rule rule;
		Map<String, String> sources = new LinkedHashMap<>();
		if (defaultRule != null) {
			rule = defaultRule;
			for (RuleField field : RuleField.values()) {
				sources.put(field.property(), "default");
			}
		}
		else {
			ExplainedRule inherited = explain(inheritedKey(key));
			rule = inherited.rule();
			sources.putAll(inherited.sources());
		}
		rule = applyExplained(this.global.get(key), "global", rule, sources);
		rule = applyExplained(this.client.get(key), "client", rule, sources);
		return new ExplainedRule(rule, Collections.unmodifiableMap(sources));
	}

	/**
	 * Return the configured error-type rules with the layer each set field came from. Fields left out inherit
	 * from the rule of the response's status, so only set fields appear.
	 * @return per error type, the override and, per set field, {@code global} or {@code client}
	 */
	public Map<String, ExplainedOverride> explainErrorTypes() {
		Map<String, ExplainedOverride> explained = new LinkedHashMap<>();
		this.errorTypes.forEach((type, merged) -> {
			Map<String, String> sources = new LinkedHashMap<>();
			RuleOverride global = this.globalTypes.get(type);
			RuleOverride client = this.clientTypes.get(type);
			if (global != null) {
				global.fieldsSet().forEach((field) -> sources.put(field.property(), "global"));
			}
			if (client != null) {
				client.fieldsSet().forEach((field) -> sources.put(field.property(), "client"));
			}
			explained.put(type, new ExplainedOverride(merged, Collections.unmodifiableMap(sources)));
		});
		return Collections.unmodifiableMap(explained);
	}

	/**
	 * A configured error-type rule with the layer each set field came from.
	 *
	 * @param override the merged fields of the global and client layers
	 * @param sources set field name to {@code global} or {@code client}
	 */
	public record ExplainedOverride(RuleOverride override, Map<String, String> sources) {
	}

	private static Rule applyExplained(RuleOverride override, String layer, Rule rule, Map<String, String> sources) {
		if (override == null) {
			return rule;
		}
		override.fieldsSet().forEach((field) -> sources.put(field.property(), layer));
		return override.applyTo(rule);
	}

	private static PolicyKey inheritedKey(PolicyKey key) {
		if (key.kind() == PolicyKey.Kind.STATUS) {
			int digit = key.status() / 100;
			if (HttpStatuses.isRegistered(key.status()) && digit >= 3 && digit <= 5) {
				return PolicyKey.statusClass(digit);
			}
		}
		return PolicyKey.UNKNOWN_STATUS;
	}

	private Rule layered(PolicyKey key, Rule inherited) {
		Rule defaultRule = DefaultPolicies.table().get(key);
		Rule rule = (defaultRule != null) ? defaultRule : inherited;
		rule = this.global.getOrDefault(key, RuleOverride.EMPTY).applyTo(rule);
		return this.client.getOrDefault(key, RuleOverride.EMPTY).applyTo(rule);
	}

	/**
	 * Collects the global and client layers; {@link #build()} resolves them.
	 */
	public static final class Builder {

		private final Map<PolicyKey, RuleOverride> global = new LinkedHashMap<>();

		private final Map<PolicyKey, RuleOverride> client = new LinkedHashMap<>();

		private final Map<String, RuleOverride> globalTypes = new LinkedHashMap<>();

		private final Map<String, RuleOverride> clientTypes = new LinkedHashMap<>();

		private Builder() {
		}

		/**
		 * Set a global rule.
		 * @param key the key
		 * @param override the fields it sets
		 * @return this builder
		 */
		public Builder global(PolicyKey key, RuleOverride override) {
			this.global.put(key, override);
			return this;
		}

		/**
		 * Set a client rule.
		 * @param key the key
		 * @param override the fields it sets
		 * @return this builder
		 */
		public Builder client(PolicyKey key, RuleOverride override) {
			this.client.put(key, override);
			return this;
		}

		/**
		 * Set a global error-type rule.
		 * @param type the error type
		 * @param override the fields it sets
		 * @return this builder
		 */
		public Builder globalErrorType(String type, RuleOverride override) {
			this.globalTypes.put(type, override);
			return this;
		}

		/**
		 * Set a client error-type rule.
		 * @param type the error type
		 * @param override the fields it sets
		 * @return this builder
		 */
		public Builder clientErrorType(String type, RuleOverride override) {
			this.clientTypes.put(type, override);
			return this;
		}

		/**
		 * Resolve the table.
		 * @return the immutable table
		 */
		public PolicyTable build() {
			return new PolicyTable(Collections.unmodifiableMap(new LinkedHashMap<>(this.global)),
					Collections.unmodifiableMap(new LinkedHashMap<>(this.client)),
					Collections.unmodifiableMap(new LinkedHashMap<>(this.globalTypes)),
					Collections.unmodifiableMap(new LinkedHashMap<>(this.clientTypes)));
		}

	}

}
