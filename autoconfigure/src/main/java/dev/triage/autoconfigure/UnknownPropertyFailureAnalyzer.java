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
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.triage.policy.ShownValues;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A key under {@code triage.} that Triage does not know (a typo such as {@code max-attempt}) fails startup
 * instead of being silently ignored; the message names the key and the closest valid one.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnknownPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException> {

	private static final Set<String> KNOWN = knownNames();

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		List<String> lines = new ArrayList<>();
		for (ConfigurationProperty property : cause.getUnboundProperties()) {
			String name = property.getName().toString();
			if (!name.startsWith("triage.")) {
				return null;
			}
			// The value of a key Triage does not know may be anything, a secret included: it is not shown.
			lines.add("    Property: " + name + "\n    Value: " + ShownValues.HIDDEN + "\n    Origin: "
					+ property.getOrigin() + "\n    Did you mean: " + closest(name));
		}
		return new FailureAnalysis("Triage does not know these properties:\n\n" + String.join("\n\n", lines),
				"Correct the property names (the closest valid names are shown above); every Triage setting is listed "
						+ "in the README's configuration reference.",
				cause);
	}

	static String closest(String name) {
		int dot = name.lastIndexOf('.');
		String parent = name.substring(0, dot + 1);
		String leaf = name.substring(dot + 1);
		String best = leaf;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : KNOWN) {
			int distance = distance(leaf, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return parent + best;
	}

	private static Set<String> knownNames() {
		Set<String> names = new TreeSet<>();
		for (Class<?> type : new Class<?>[] { TriageProperties.class, TriageProperties.Client.class,
				TriageProperties.Rule.class, TriageProperties.Backoff.class, TriageProperties.RetryBudget.class,
				TriageProperties.Throttle.class, TriageProperties.Poison.class, TriageProperties.ConnectionPool.class }) {
			for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
				if (!descriptor.getName().equals("class")) {
					names.add(kebab(descriptor.getName()));
				}
			}
		}
		return names;
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

}
