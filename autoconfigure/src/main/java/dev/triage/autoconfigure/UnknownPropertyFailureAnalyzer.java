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

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.triage.policy.ShownValues;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * A key under {@code triage.} that Triage does not know (a typo such as {@code max-attempt}) fails startup
 * instead of being silently ignored; the message names the key, where it was set and the valid key it was
 * probably meant to be: every misspelt segment corrected along the way, and a map key with dots (an error type
 * such as {@code com.acme.Overloaded}) put in the {@code [...]} brackets that keep it one key.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnknownPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		List<String> lines = new ArrayList<>();
		Suggestion bracketed = null;
		for (ConfigurationProperty property : cause.getUnboundProperties()) {
			ConfigurationPropertyName name = property.getName();
			if (!name.toString().startsWith("triage.")) {
				return null;
			}
			List<String> written = writtenSegments(property);
			Suggestion suggestion = (written != null) ? suggestWritten(written) : suggest(name);
			if (bracketed == null && suggestion.bracketedKey() != null) {
				bracketed = suggestion;
			}
			// The value of a key Triage does not know may be anything, a secret included: it is not shown.
			String line = "    Property: " + name + "\n    Value: " + ShownValues.HIDDEN + "\n    Origin: "
					+ property.getOrigin() + "\n    Did you mean: " + suggestion.name();
			if (suggestion.bracketedKey() != null) {
				line += "\n    Hint: '" + suggestion.bracketedKey() + "' is one map key with dots in it; without [...] "
						+ "brackets each dot starts a new level";
			}
			lines.add(line);
		}
		String action = "Correct the property names (the closest valid names are shown above); every Triage setting "
				+ "is listed in docs/configuration.md.";
		if (bracketed != null) {
			action += " Put a map key that contains dots in brackets: " + WrittenKeys.forProperties(bracketed.name())
					+ " in application.properties, a quoted key \"[" + bracketed.bracketedKey() + "]\": in YAML.";
		}
		return new FailureAnalysis("Triage does not know these properties:\n\n" + String.join("\n\n", lines), action,
				cause);
	}

	/**
	 * Return the valid name closest to the given one.
	 * @param name a name under {@code triage.}
	 * @return the closest valid name
	 */
	static String closest(String name) {
		return suggest(ConfigurationPropertyName.adapt(name, '.')).name();
	}

	/**
	 * Walk the name through the properties' structure from {@code triage}: a bean's unknown property becomes its
	 * closest known one, a map key is kept as written (several segments in brackets when the next one is not a
	 * property of the map's values but a later one is), a list index is kept.
	 */
	static Suggestion suggest(ConfigurationPropertyName name) {
		List<String> segments = new ArrayList<>();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			segments.add(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return suggestWritten(segments);
	}

	/**
	 * Return the key as written in its property source, split at its dots, when Spring Boot's name for it lost
	 * characters (a map key such as an RFC 9457 type URI, {@code https://example.com/probs/out-of-credit}, written
	 * without brackets: its {@code :} and {@code /} are dropped), so that the suggestion keeps them.
	 * @return the segments as written, {@code null} when the name kept them all or the source is not known
	 */
	static List<String> writtenSegments(ConfigurationProperty property) {
		ConfigurationPropertySource source = property.getSource();
		Object underlying = (source != null) ? source.getUnderlyingSource() : null;
		if (!(underlying instanceof EnumerablePropertySource<?> properties)) {
			return null;
		}
		for (String written : properties.getPropertyNames()) {
			if (WrittenKeys.losesCharacters(written)
					&& ConfigurationPropertyName.adapt(written, '.').equals(property.getName())) {
				return WrittenKeys.segments(written);
			}
		}
		return null;
	}

	/**
	 * Walk a name as written, split at its dots, as {@link #suggest(ConfigurationPropertyName)} does.
	 */
	static Suggestion suggestWritten(List<String> segments) {
		StringBuilder suggestion = new StringBuilder("triage");
		String bracketedKey = null;
		ResolvableType type = ResolvableType.forClass(TriageProperties.class);
		int i = 1;
		while (i < segments.size()) {
			String segment = segments.get(i);
			if (type.asMap() != ResolvableType.NONE) {
				ResolvableType value = type.asMap().getGeneric(1);
				Map<String, ResolvableType> valueProperties = properties(value);
				int next = i + 1;
				if (!valueProperties.isEmpty() && next < segments.size()
						&& !valueProperties.containsKey(segments.get(next))) {
					for (int j = next + 1; j < segments.size(); j++) {
						if (valueProperties.containsKey(segments.get(j))) {
							next = j;
							bracketedKey = String.join(".", segments.subList(i, j));
							break;
						}
					}
				}
				String key = String.join(".", segments.subList(i, next));
				suggestion.append(plain(key) ? "." + key : ".[" + key + "]");
				type = value;
				i = next;
			}
			else if (type.asCollection() != ResolvableType.NONE || type.isArray()) {
				suggestion.append(segment.matches("\\d+") ? "[" + segment + "]" : "." + segment);
				type = (type.isArray()) ? type.getComponentType() : type.asCollection().getGeneric(0);
				i++;
			}
			else {
				Map<String, ResolvableType> properties = properties(type);
				if (properties.isEmpty()) {
					suggestion.append('.').append(String.join(".", segments.subList(i, segments.size())));
					break;
				}
				String property = properties.containsKey(segment) ? segment : nearest(segment, properties.keySet());
				suggestion.append('.').append(property);
				type = properties.get(property);
				i++;
			}
		}
		return new Suggestion(suggestion.toString(), bracketedKey);
	}

	private static boolean plain(String key) {
		return key.matches("[a-z0-9-]+");
	}

	/** Triage's own properties types, kebab-case property name to type; empty for anything else. */
	private static Map<String, ResolvableType> properties(ResolvableType type) {
		Map<String, ResolvableType> properties = new TreeMap<>();
		Class<?> resolved = type.resolve();
		if (resolved == null || (resolved != TriageProperties.class && resolved.getEnclosingClass() != TriageProperties.class)
				|| resolved.isEnum()) {
			return properties;
		}
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(resolved)) {
			if (!descriptor.getName().equals("class") && descriptor.getReadMethod() != null) {
				properties.put(kebab(descriptor.getName()), ResolvableType.forMethodReturnType(descriptor.getReadMethod()));
			}
		}
		return properties;
	}

	private static String nearest(String segment, Collection<String> candidates) {
		String best = segment;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : candidates) {
			int distance = distance(segment, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	private static String kebab(String camel) {
		StringBuilder kebab = new StringBuilder();
		for (char c : camel.toCharArray()) {
			if (Character.isUpperCase(c)) {
				kebab.append('-').append(Character.toLowerCase(c));
			}
			else {
				kebab.append(c);
			}
		}
		return kebab.toString();
	}

	/** Levenshtein distance. */
	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * The valid name a key was probably meant to be.
	 *
	 * @param name the suggested name
	 * @param bracketedKey a map key with dots that needs brackets, {@code null} if none
	 */
	record Suggestion(String name, String bracketedKey) {
	}

}
