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

package dev.triage.aot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.triage.support.AheadOfTime;
import dev.triage.support.BillingClient;
import dev.triage.support.HttpServiceClients;
import dev.triage.support.InventoryClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.context.annotation.Import;

/**
 * Spring Boot's AOT processing ({@code spring-boot-maven-plugin}'s {@code process-aot}, the way to native images
 * and to AOT on the JVM) of an application with Feign clients and HTTP service clients under Triage: it used to
 * fail on Triage's per-client Feign configuration ("className cannot be null" in Spring Cloud OpenFeign's AOT
 * processor, which took it for a {@code @FeignClient}).
 */
class AotProcessingTests {

	@TempDir
	Path output;

	@Test
	void anApplicationWithTriageIsProcessedAheadOfTime() throws IOException {
		// Resilience4j's Spring Boot 4 module makes its registries refresh-scoped where Spring Cloud Context is,
		// which Spring's AOT cannot process (docs/boot-lines.md): its refresh is off here.
		AheadOfTime.process(AotApplication.class, this.output, "--test.upstream.inventory=http://127.0.0.1:9",
				"--test.upstream.billing=http://127.0.0.1:9", "--spring.cloud.refresh.enabled=false",
				"--spring.main.web-application-type=none");

		assertThat(generatedSources()).as("the Feign clients' bean definitions, generated")
			.anyMatch((source) -> source.contains(InventoryClient.class.getSimpleName()))
			.anyMatch((source) -> source.contains("triageFeignClientSpecification"));
	}

	private Stream<String> generatedSources() throws IOException {
		try (Stream<Path> files = Files.walk(this.output.resolve("sources"))) {
			return files.filter((file) -> file.toString().endsWith(".java")).map(AotProcessingTests::read).toList().stream();
		}
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { InventoryClient.class, BillingClient.class })
	@Import(HttpServiceClients.class)
	public static class AotApplication {

		public static void main(String[] args) {
			SpringApplication.run(AotApplication.class, args);
		}

	}

}
