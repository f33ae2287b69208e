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

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Where a property a startup failure names was set (file and line, or the property source), the way Spring
 * Boot's own binding failures show it.
 */
final class PropertyOrigins {

	private PropertyOrigins() {
	}

	/**
	 * Find the origin of the property, or of the value it came from: a list element written as one
	 * comma-separated value ({@code triage.idempotent-methods[1]}) has its list's origin, a map key without a
	 * value of its own ({@code triage.policies.5xy}) the origin of its first field.
	 * @param environment the environment, may be {@code null}
	 * @param property the property name as the failure names it
	 * @return the origin, {@code null} when unknown
	 */
	static Origin find(Environment environment, String property) {
		if (environment == null || property == null) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(property);
		if (name == null) {
			name = ConfigurationPropertyName.adapt(property, '.');
		}
		Iterable<ConfigurationPropertySource> sources = ConfigurationPropertySources.get(environment);
		Origin origin = exact(sources, name);
		if (origin == null && property.indexOf('[') >= 0) {
			// A map key the failure names in brackets may have been written without them
			// (triage.error-types.overloaded_error.max-attempts): look it up as written that way too.
			origin = exact(sources, ConfigurationPropertyName.adapt(property.replace("[", ".").replace("]", ""), '.'));
		}
		if (origin == null) {
			origin = firstDescendant(sources, name);
		}
		for (ConfigurationPropertyName parent = name.getParent(); origin == null
				&& parent.getNumberOfElements() > 1; parent = parent.getParent()) {
			origin = exact(sources, parent);
		}
		return origin;
	}

	/**
	 * Describe where the property was set, for a failure analysis.
	 * @param environment the environment, may be {@code null}
	 * @param property the property name
	 * @return a line to append, empty when the origin is unknown
	 */
	static String line(Environment environment, String property) {
		Origin origin = find(environment, property);
		return (origin != null) ? "\n    Origin: " + origin : "";
	}

	private static Origin exact(Iterable<ConfigurationPropertySource> sources, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : sources) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property.getOrigin();
			}
		}
		return null;
	}

	private static Origin firstDescendant(Iterable<ConfigurationPropertySource> sources,
			ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : sources) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				ConfigurationPropertyName descendant = iterable.stream()
					.filter(name::isAncestorOf)
					.findFirst()
					.orElse(null);
				if (descendant != null) {
					ConfigurationProperty property = iterable.getConfigurationProperty(descendant);
					return (property != null) ? property.getOrigin() : null;
				}
			}
		}
		return null;
	}

}
