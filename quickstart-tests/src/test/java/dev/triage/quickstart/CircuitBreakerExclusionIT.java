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

import org.junit.jupiter.api.Test;

/**
 * Spring Boot 4 line only (see the module poms): the README's Quick start with Spring Cloud CircuitBreaker on
 * Resilience4j, a real application started twice. Without the exclusion docs/boot-lines.md gives, Resilience4j's
 * Spring Boot 3 and 4 modules collide and Triage's failure analysis names the exclusion; with the snippet from
 * docs/boot-lines.md, word for word, the application starts.
 */
class CircuitBreakerExclusionIT {

	private static final String CIRCUIT_BREAKER = """
			<dependency>
			  <groupId>org.springframework.cloud</groupId>
			  <artifactId>spring-cloud-starter-circuitbreaker-resilience4j</artifactId>
			</dependency>""";

	@Test
	void withoutTheExclusionStartupFailsWithAnAnalysisThatNamesIt() throws Exception {
		ThrowawayApplication application = ThrowawayApplication.create("circuitbreaker-app", quickStart(),
				CIRCUIT_BREAKER);
		assertThat(application.build()).as("both Resilience4j modules resolved")
			.anyMatch((line) -> line.contains("io.github.resilience4j:resilience4j-spring-boot3:"))
			.anyMatch((line) -> line.contains("io.github.resilience4j:resilience4j-spring-boot4:"));

		String output = application.start();

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("resilience4j-spring-boot3")
			.contains("resilience4j-spring-boot4")
			.contains("<artifactId>spring-cloud-starter-circuitbreaker-resilience4j</artifactId>")
			.contains("<artifactId>resilience4j-spring-boot3</artifactId>")
			.doesNotContain("Started ShopApplication");
	}

	@Test
	void withTheExclusionFromTheDocsTheApplicationStarts() throws Exception {
		String exclusion = ThrowawayApplication.xmlUnder(
				Files.readString(ThrowawayApplication.ROOT.resolve("docs/boot-lines.md")), null,
				"## Spring Cloud CircuitBreaker on Spring Boot 4");
		ThrowawayApplication application = ThrowawayApplication.create("circuitbreaker-excluded-app", quickStart(),
				exclusion);
		assertThat(application.build()).as("only the Boot 4 module of Resilience4j")
			.noneMatch((line) -> line.contains("io.github.resilience4j:resilience4j-spring-boot3:"))
			.anyMatch((line) -> line.contains("io.github.resilience4j:resilience4j-spring-boot4:"))
			.anyMatch((line) -> line.contains("spring-cloud-circuitbreaker-resilience4j"));

		assertThat(application.start()).contains("Started ShopApplication");
	}

	private static String quickStart() throws Exception {
		return ThrowawayApplication.xmlUnder(Files.readString(ThrowawayApplication.ROOT.resolve("README.md")),
				"## Quick start", ThrowawayApplication.HEADING);
	}

}
