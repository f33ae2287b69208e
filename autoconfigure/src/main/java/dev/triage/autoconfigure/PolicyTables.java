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

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import dev.triage.policy.InvalidPolicyException;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RuleField;
import dev.triage.policy.RuleOverride;

/**
 * Turns the bound {@link TriageProperties} into validated {@link PolicyTable}s. Every bad value becomes an
 * {@link InvalidPolicyException} naming its property.
 */
final class PolicyTables {

	/**
	 * The methods a request of a Feign client can have (RFC 9110 and PATCH); CONNECT is not one.
	 */
	static final List<String> HTTP_METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
			"TRACE");

	private PolicyTables() {
	}

	/**
	 * Return the methods of {@code triage.idempotent-methods} as requests carry them (upper case, trimmed).
	 * @param properties the properties
	 * @return the method names
	 */
	static Set<String> idempotentMethods(TriageProperties properties) {
		return properties.getIdempotentMethods()
			.stream()
			.map((method) -> method.trim().toUpperCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return the property name of a map entry as Spring Boot writes it: a key that is not a plain lower-case
	 * element (an error type such as {@code com.acme.Overloaded}) in brackets.
	 */
	static String entry(String prefix, String key) {
		return key.matches("[a-z0-9-]+") ? prefix + "." + key : prefix + "[" + key + "]";
	}

	static PolicyTable forClient(TriageProperties properties, String clientName) {
		PolicyTable.Builder builder = PolicyTable.builder();
		addRules("triage.policies", properties.getPolicies(), builder::global);
		addTypes("triage.error-types", properties.getErrorTypes(), builder::globalErrorType);
		TriageProperties.Client client = (clientName != null) ? properties.getClients().get(clientName) : null;
		if (client != null) {
			String prefix = "triage.clients." + clientName;
			addRules(prefix + ".policies", client.getPolicies(), builder::client);
			addTypes(prefix + ".error-types", client.getErrorTypes(), builder::clientErrorType);
		}
		return builder.build();
	}

	static void validate(TriageProperties properties) {
		forClient(properties, null);
		OverloadSettings.budget(properties, null);
		OverloadSettings.throttle(properties, null);
		OverloadSettings.poison(properties, null);
		for (int i = 0; i < properties.getIdempotentMethods().size(); i++) {
			String method = properties.getIdempotentMethods().get(i);
			if (method == null || !HTTP_METHODS.contains(method.trim().toUpperCase(Locale.ROOT))) {
				throw new InvalidPolicyException("triage.idempotent-methods[" + i + "]", method,
						"an HTTP method: " + String.join(", ", HTTP_METHODS.subList(0, HTTP_METHODS.size() - 1))
								+ " or " + HTTP_METHODS.get(HTTP_METHODS.size() - 1));
			}
		}
		for (int i = 0; i < properties.getSensitiveHeaders().size(); i++) {
			String header = properties.getSensitiveHeaders().get(i);
			if (header == null || !header.trim().matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
				// Likely a header written with its value ("Authorization: Bearer ..."): the value is not shown.
				throw InvalidPolicyException.hidingValue("triage.sensitive-headers[" + i + "]",
						"a header name only, e.g. X-Api-Token (never its value)");
			}
		}
		if (properties.getMaxBodyBytes() == null || properties.getMaxBodyBytes().toBytes() < 0
				|| properties.getMaxBodyBytes().toBytes() > Integer.MAX_VALUE - 8) {
			throw new InvalidPolicyException("triage.max-body-bytes", properties.getMaxBodyBytes(),
					"a size from 0B to 2GB, e.g. 64KB");
		}
		positive("triage.pause-max", properties.getPauseMax(), false);
		if (properties.getCallLogWindow() != null && properties.getCallLogWindow().isNegative()) {
			throw new InvalidPolicyException("triage.call-log-window", properties.getCallLogWindow(),
					"a duration of 0 (every call logged) or more, e.g. 10s");
		}
		// Keys read only at startup are checked here too, so that a change while running is refused when the next
		// start would refuse it, rather than said to apply then.
		notNegative("triage.connection-pool.validate-after-inactivity",
				properties.getConnectionPool().getValidateAfterInactivity(), "1s");
		notNegative("triage.connection-pool.evict-idle-after", properties.getConnectionPool().getEvictIdleAfter(),
				"30s");
		TriageFleetConfiguration.limits(properties);
		properties.getClients().forEach((name, client) -> {
			forClient(properties, name);
			positive("triage.clients." + name + ".pause-max", client.getPauseMax(), true);
			OverloadSettings.budget(properties, name);
			OverloadSettings.throttle(properties, name);
			OverloadSettings.poison(properties, name);
			if (client.getDeadline() != null && (client.getDeadline().isNegative() || client.getDeadline().isZero())) {
				throw new InvalidPolicyException("triage.clients." + name + ".deadline", client.getDeadline(),
						"a positive duration, e.g. 5s");
			}
		});
	}

	private static void positive(String property, java.time.Duration value, boolean mayBeLeftOut) {
		if ((value == null && !mayBeLeftOut) || (value != null && (value.isNegative() || value.isZero()))) {
			throw new InvalidPolicyException(property, value, "a positive duration, e.g. 10m");
		}
	}

	private static void notNegative(String property, java.time.Duration value, String example) {
		if (value == null || value.isNegative()) {
			throw new InvalidPolicyException(property, value, "a duration of 0 or more, e.g. " + example);
		}
	}

	private static void addRules(String prefix, Map<String, TriageProperties.Rule> rules,
			BiConsumer<PolicyKey, RuleOverride> sink) {
		rules.forEach((key, rule) -> {
			String property = entry(prefix, key);
			sink.accept(PolicyKey.parse(property, key), toOverride(property, rule));
		});
	}

	private static void addTypes(String prefix, Map<String, TriageProperties.Rule> rules,
			BiConsumer<String, RuleOverride> sink) {
		rules.forEach((type, rule) -> sink.accept(type, toOverride(entry(prefix, type), rule)));
	}

	private static RuleOverride toOverride(String property, TriageProperties.Rule rule) {
		if (rule == null) {
			return RuleOverride.EMPTY;
		}
		TriageProperties.Backoff backoff = rule.getBackoff();
		return RuleOverride.builder()
			.set(RuleField.MAX_ATTEMPTS, rule.getMaxAttempts())
			.set(RuleField.BACKOFF_INITIAL, backoff.getInitial())
			.set(RuleField.BACKOFF_MULTIPLIER, backoff.getMultiplier())
			.set(RuleField.BACKOFF_MAX, backoff.getMax())
			.set(RuleField.BACKOFF_JITTER, backoff.getJitter())
			.set(RuleField.RETRY_AFTER, rule.getRetryAfter())
			.set(RuleField.RETRY_AFTER_MAX, rule.getRetryAfterMax())
			.set(RuleField.IDEMPOTENT_ONLY, rule.getIdempotentOnly())
			.set(RuleField.BREAKER, rule.getBreaker())
			.set(RuleField.ALERT, rule.getAlert())
			.set(RuleField.FALLBACK, rule.getFallback())
			.set(RuleField.PAUSE, rule.getPause())
			.set(RuleField.OVERLOAD, rule.getOverload())
			.set(RuleField.FAILOVER, rule.getFailover())
			.build()
			.validate(property);
	}

}
