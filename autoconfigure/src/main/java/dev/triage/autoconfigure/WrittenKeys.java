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

import dev.triage.policy.InvalidPolicyException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * Keys under {@code triage.} as written in the application's property sources. Spring Boot drops from a name
 * written without {@code [...]} brackets every character a property name cannot hold ({@code :}, {@code /}, a
 * space, non-ASCII letters): an error type {@code urn:acme:quota} would silently become {@code urnacmequota} and
 * never match. Such a key fails startup (and a reload) naming the key and its bracketed form.
 */
final class WrittenKeys {

	private static final String PREFIX = "triage.";

	private WrittenKeys() {
	}

	/**
	 * Refuse a key under {@code triage.} that Spring Boot would read with characters dropped.
	 * @param environment the environment
	 * @throws InvalidPolicyException naming the first such key as written
	 */
	static void rejectLostCharacters(Environment environment) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return;
		}
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			for (String written : enumerable.getPropertyNames()) {
				if (written.startsWith(PREFIX) && losesCharacters(written)) {
					String meant = UnknownPropertyFailureAnalyzer.suggestWritten(segments(written)).name();
					throw new InvalidPolicyException(written, enumerable.getProperty(written),
							"a key Spring Boot can read as written: " + meant + " (in YAML, the map key quoted in "
									+ "brackets, \"[...]\":; in application.properties " + forProperties(meant)
									+ "); without brackets Spring Boot drops the characters a property name cannot "
									+ "hold and reads " + ConfigurationPropertyName.adapt(written, '.'));
				}
			}
		}
	}

	/**
	 * Return whether Spring Boot reads a name written without brackets with characters dropped.
	 * @param written the name as written
	 * @return whether it does
	 */
	static boolean losesCharacters(String written) {
		if (written.indexOf('[') >= 0) {
			return false;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(written, '.');
		StringBuilder read = new StringBuilder(written.length());
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			read.append((i > 0) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return !read.toString().equals(written);
	}

	/**
	 * Return a key as an {@code application.properties} file must spell it: a {@code :}, {@code =} or space in it
	 * would end the key there unless escaped with a backslash.
	 * @param name the key
	 * @return the key, escaped
	 */
	static String forProperties(String name) {
		return name.replace(":", "\\:").replace("=", "\\=").replace(" ", "\\ ");
	}

	/**
	 * Return a name as written split at its dots.
	 * @param written the name, without brackets
	 * @return its segments
	 */
	static List<String> segments(String written) {
		return List.of(written.split("\\.", -1));
	}

}
