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

package dev.triage.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import feign.Feign;
import io.github.resilience4j.core.EventConsumer;
import org.junit.jupiter.api.Test;

/**
 * Builds a new application from the README's Quick start for this build's Spring Boot line: Spring Boot's parent
 * plus the README's Maven snippet, word for word, and the Quick start's code and YAML (the ones
 * {@code QuickStartTests} runs), against the artifacts of this reactor. The application must build, resolve the
 * Resilience4j and Feign versions this line's own tests run with, each one version only, and no Kotlin, start, and
 * inject and call its client.
 */
class QuickStartBuildIT {

	@Test
	void theReadmeQuickStartBuildsWithTheVersionsThisLineIsTestedWithAndStarts() throws Exception {
		String snippet = ThrowawayApplication.xmlUnder(Files.readString(ThrowawayApplication.ROOT.resolve("README.md")),
				"## Quick start", ThrowawayApplication.HEADING);
		assertThat(snippet).as("the README's Maven snippet under '%s'", ThrowawayApplication.HEADING)
			.contains("<artifactId>" + ThrowawayApplication.BOM + "</artifactId>")
			.contains("<artifactId>" + ThrowawayApplication.STARTER + "</artifactId>");
		ThrowawayApplication application = ThrowawayApplication.create("quickstart-app", snippet, "");
		// What an application does with the client: inject it and call it (its upstream a closed port).
		application.add("FirstCall.java", """
				package dev.triage.quickstart;

				import org.springframework.boot.CommandLineRunner;
				import org.springframework.stereotype.Component;

				@Component
				class FirstCall implements CommandLineRunner {

					private final InventoryClient inventory;

					FirstCall(InventoryClient inventory) {
						this.inventory = inventory;
					}

					@Override
					public void run(String... args) {
						try {
							this.inventory.item("1");
						}
						catch (RuntimeException ex) {
							System.out.println("first call: " + ex.getClass().getName());
						}
					}

				}
				""");

		List<String> resolved = application.build();

		assertThat(resolved)
			.anyMatch((line) -> line.contains("dev.triage:" + ThrowawayApplication.STARTER + ":jar:0.1.0-SNAPSHOT"));
		assertThat(ThrowawayApplication.versions(resolved, "io.github.resilience4j")).as("Resilience4j versions")
			.containsExactly(versionOf(EventConsumer.class, "resilience4j-core"));
		assertThat(ThrowawayApplication.versions(resolved, "io.github.openfeign")).as("Feign versions")
			.containsExactly(versionOf(Feign.class, "feign-core"));
		assertThat(resolved).as("no Kotlin").noneMatch((line) -> line.contains("org.jetbrains.kotlin"));
		assertThat(application.start("ShopApplication", "first call:", "--inventory.url=http://127.0.0.1:9"))
			.as("the client is injected and called: Triage's typed exception for the closed port")
			.contains("Started ShopApplication")
			.contains("first call: dev.triage.UpstreamTransportException");
	}

	/**
	 * The version of the jar a class of this line's own test class path came from.
	 */
	private static String versionOf(Class<?> type, String artifactId) throws Exception {
		String jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
		assertThat(jar).startsWith(artifactId + "-").endsWith(".jar");
		return jar.substring(artifactId.length() + 1, jar.length() - ".jar".length());
	}

}
