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
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.triage.policy.ShownValues;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.unit.DataSize;

/**
 * A value under {@code triage.} that cannot be converted to its type (a URL where a duration belongs) fails
 * startup with a message in the words of Triage's own validation (property, value, origin, what is allowed), and shows the value without user info,
 * query or fragment: Spring's own report would print it whole, secrets included, and its reason repeats it.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class PropertyBindingFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = shown(cause.getName());
		if (!name.startsWith("triage.") || findCause(cause, UnboundConfigurationPropertiesException.class) != null) {
			// Unknown keys have an analyzer of their own.
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		String type = cause.getTarget().getType().toString();
		boolean table = name.contains(".policies") || name.contains("error-types");
		StringBuilder description = new StringBuilder(
				table ? "Triage's policy table is invalid." : "A Triage setting is invalid.")
			.append("\n\n    Property: ")
			.append(name);
		if (property != null) {
			description.append("\n    Value: ").append(ShownValues.of(property.getValue()));
			description.append("\n    Origin: ").append(property.getOrigin());
		}
		String allowed = allowed(cause.getTarget().getType().resolve(), type);
		description.append("\n    Allowed: ").append(allowed);
		return new FailureAnalysis(description.toString(),
				"Update '" + name + "' in your application's configuration to " + allowed + ".", cause);
	}

	/**
	 * The property's name as the other reports name it: an error type as written (types are case-sensitive), in
	 * brackets when it is not a plain lower-case name, where Spring's own name would lower-case it and so point at
	 * another rule.
	 */
	static String shown(ConfigurationPropertyName name) {
		StringBuilder shown = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			boolean errorType = i > 0 && "error-types".equals(name.getElement(i - 1, Form.DASHED))
					&& !name.getElement(i, Form.ORIGINAL).matches("[a-z0-9-]+");
			if (errorType || name.isNumericIndex(i)) {
				shown.append('[').append(name.getElement(i, Form.ORIGINAL)).append(']');
			}
			else {
				shown.append((i > 0) ? "." : "").append(name.getElement(i, Form.DASHED));
			}
		}
		return shown.toString();
	}

	/**
	 * What a value of the type may be, in the words of the YAML (an enum's values as written there: lower case,
	 * dashes), not in the names of Java types.
	 */
	private static String allowed(Class<?> type, String fallback) {
		if (type == null) {
			return "a valid " + fallback;
		}
		if (type.isEnum()) {
			return "one of " + Arrays.stream(type.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
				.collect(Collectors.joining(", "));
		}
		if (type == Boolean.class || type == boolean.class) {
			return "true or false";
		}
		if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
			return "a whole number";
		}
		if (type == Double.class || type == double.class) {
			return "a number";
		}
		if (type == Duration.class) {
			return "a duration (e.g. 500ms, 2s, 1m)";
		}
		if (type == DataSize.class) {
			return "a size (e.g. 64KB, 1MB)";
		}
		if (type.getEnclosingClass() == TriageProperties.class) {
			// A value where settings belong: in application.properties, a ':' or '=' in a map key ends the key.
			return "settings under this key, not a value (in application.properties a ':' or '=' ends a key unless "
					+ "escaped: an error type such as urn:acme:quota is written triage.error-types[urn\\:acme\\:quota])";
		}
		return "a valid " + type.getSimpleName();
	}

}
