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

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.policy.DefaultPolicies;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.Rule;
import dev.triage.policy.RuleField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.core.ResolvableType;

/**
 * The configuration metadata IDEs read (the annotation processor's output merged with
 * {@code additional-spring-configuration-metadata.json}) describes every key of {@link TriageProperties}, the
 * per-client ones and the rule fields under each map included ({@code *} standing for a client name, policy
 * key or error type), in Spring Boot's description style; the policy keys' hints carry the built-in rows.
 */
class ConfigurationMetadataTests {

	private static final Map<String, JsonNode> properties = new LinkedHashMap<>();

	private static JsonNode hints;

	@BeforeAll
	static void readMetadata() throws IOException {
		ObjectMapper json = new ObjectMapper();
		List<URL> resources = Collections.list(ConfigurationMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"));
		for (URL resource : resources) {
			try (InputStream in = resource.openStream()) {
				JsonNode metadata = json.readTree(in);
				if (metadata.path("properties").findValuesAsText("name").contains("triage.enabled")) {
					metadata.path("properties").forEach((property) -> properties.put(property.path("name").asText(), property));
					hints = metadata.path("hints");
				}
			}
		}
		assertThat(properties).as("Triage's generated metadata on the classpath").containsKey("triage.enabled");
	}

	@Test
	void everyKeyOfThePropertiesIsInTheMetadataPerClientAndRuleFieldsIncluded() {
		List<String> expected = new ArrayList<>();
		walk("triage", ResolvableType.forClass(TriageProperties.class), expected);

		assertThat(expected).contains("triage.clients.*.deadline", "triage.clients.*.poison.ttl",
				"triage.clients.*.policies.*.backoff.initial", "triage.error-types.*.failover");
		assertThat(new TreeSet<>(properties.keySet())).as("keys without metadata").containsAll(expected);
	}

	@Test
	void everyPropertyHasADescriptionInSpringBootsStyle() {
		List<String> problems = new ArrayList<>();
		properties.forEach((name, property) -> {
			if (!name.startsWith("triage.")) {
				return;
			}
			String description = property.path("description").asText("");
			String type = property.path("type").asText("");
			if (description.isBlank()) {
				problems.add(name + ": no description");
			}
			else if (description.startsWith("The ") || !Character.isUpperCase(description.charAt(0))
					|| !description.endsWith(".")) {
				problems.add(name + ": '" + description + "' should be a sentence without a leading 'The'");
			}
			else if ((type.equals("java.lang.Boolean") || type.equals("boolean")) && !description.startsWith("Whether")) {
				problems.add(name + ": a boolean's description starts with 'Whether'");
			}
		});
		assertThat(problems).isEmpty();
	}

	@Test
	void globalKeysWithADefaultShowIt() {
		List<String> missing = new ArrayList<>();
		properties.forEach((name, property) -> {
			boolean hasDefault = !property.path("defaultValue").isMissingNode();
			boolean map = property.path("type").asText().startsWith("java.util.Map");
			if (name.startsWith("triage.") && !name.contains("*") && !map && !hasDefault
					&& !name.equals("triage.sensitive-headers")) {
				missing.add(name);
			}
		});
		assertThat(missing).isEmpty();
		assertThat(properties.get("triage.clients.*.enabled").path("defaultValue").asBoolean()).isTrue();
	}

	@Test
	void everyPolicyKeyIsHintedWithItsBuiltInRow() {
		Map<String, String> expected = new LinkedHashMap<>();
		DefaultPolicies.table().forEach((key, rule) -> expected.put(key.toString(), "Built-in: " + row(rule) + "."));
		Map<String, String> hinted = new LinkedHashMap<>();
		for (JsonNode hint : hints) {
			if (hint.path("name").asText().equals("triage.policies.keys")) {
				hint.path("values").forEach((value) -> hinted.put(value.path("value").asText(),
						value.path("description").asText()));
			}
		}

		assertThat(hinted.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
		expected.forEach((key, row) -> assertThat(hinted.get(key))
			.as("triage.policies.keys hint of %s in additional-spring-configuration-metadata.json", key)
			.endsWith(row));
		hinted.keySet().forEach((key) -> PolicyKey.parse("triage.policies." + key, key));
	}

	/** The keys a user can write, a map's key written as {@code *}. */
	private static void walk(String prefix, ResolvableType type, List<String> names) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type.toClass())) {
			if (descriptor.getName().equals("class") || descriptor.getReadMethod() == null) {
				continue;
			}
			String name = prefix + "." + kebab(descriptor.getName());
			ResolvableType property = ResolvableType.forMethodReturnType(descriptor.getReadMethod());
			if (ownType(property)) {
				walk(name, property, names);
				continue;
			}
			names.add(name);
			if (property.asMap() != ResolvableType.NONE && ownType(property.asMap().getGeneric(1))) {
				walk(name + ".*", property.asMap().getGeneric(1), names);
			}
		}
	}

	private static boolean ownType(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return resolved != null && resolved.getEnclosingClass() == TriageProperties.class && !resolved.isEnum();
	}

	private static String kebab(String camel) {
		return camel.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
	}

	private static String row(Rule rule) {
		List<String> fields = new ArrayList<>();
		for (RuleField field : RuleField.values()) {
			Object value = field.get(rule);
			fields.add(field.property() + " " + ((value instanceof Duration duration) ? text(duration) : field.display(value)));
		}
		return String.join(", ", fields);
	}

	private static String text(Duration duration) {
		long millis = duration.toMillis();
		long[] sizes = { 86_400_000, 3_600_000, 60_000, 1_000 };
		String[] units = { "d", "h", "m", "s" };
		for (int i = 0; i < sizes.length && millis != 0; i++) {
			if (millis % sizes[i] == 0) {
				return (millis / sizes[i]) + units[i];
			}
		}
		return (millis == 0) ? "0s" : millis + "ms";
	}

}
