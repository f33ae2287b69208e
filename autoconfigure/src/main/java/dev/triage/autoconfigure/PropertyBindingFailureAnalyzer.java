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

import java.util.Arrays;
import java.util.stream.Collectors;

import dev.triage.policy.ShownValues;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A value under {@code triage.} that cannot be converted to its type (a URL where a duration belongs) fails
 * startup with a message that names the property and the type wanted, and shows the value without user info,
 * query or fragment: Spring's own report would print it whole, secrets included, and its reason repeats it.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class PropertyBindingFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = cause.getName().toString();
		if (!name.startsWith("triage.") || findCause(cause, UnboundConfigurationPropertiesException.class) != null) {
			// Unknown keys have an analyzer of their own.
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		String type = cause.getTarget().getType().toString();
		StringBuilder description = new StringBuilder("Triage could not bind a property.\n\n    Property: ")
			.append(name);
		if (property != null) {
			description.append("\n    Value: ").append(ShownValues.of(property.getValue()));
			description.append("\n    Origin: ").append(property.getOrigin());
		}
		description.append("\n    Reason: the value is not a valid ").append(type);
		Class<?> resolved = cause.getTarget().getType().resolve();
		String allowed = (resolved != null && resolved.isEnum())
				? "one of " + Arrays.stream(resolved.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "))
				: "a valid " + type;
		return new FailureAnalysis(description.toString(),
				"Update '" + name + "' in your application's configuration to " + allowed + ".", cause);
	}

}
