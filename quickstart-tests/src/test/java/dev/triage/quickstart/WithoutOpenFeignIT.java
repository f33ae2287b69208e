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
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * SPEC §11: "An application without Spring Cloud OpenFeign on its classpath (the starter with it excluded) runs
 * HTTP service clients alone." A new application from the README's Quick start pom, its dependencies replaced by
 * docs/http-service-clients.md's snippet for this line, word for word, built against this reactor's artifacts:
 * nothing of Feign resolves, it starts, and a call through {@code TriageHttpServices} ends as Triage reports it.
 */
class WithoutOpenFeignIT {

	private static final String APPLICATION = """
			package dev.triage.quickstart;

			import dev.triage.TriageHttpServices;
			import dev.triage.UpstreamTransportException;
			import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
			import org.springframework.boot.ApplicationRunner;
			import org.springframework.boot.SpringApplication;
			import org.springframework.boot.autoconfigure.SpringBootApplication;
			import org.springframework.context.annotation.Bean;
			import org.springframework.web.bind.annotation.PathVariable;
			import org.springframework.web.client.RestClient;
			import org.springframework.web.service.annotation.GetExchange;

			@SpringBootApplication
			public class CatalogApplication {

				interface CatalogApi {

					@GetExchange("/items/{id}")
					String item(@PathVariable("id") String id);

				}

				public static void main(String[] args) {
					SpringApplication.run(CatalogApplication.class, args);
				}

				@Bean
				ApplicationRunner callOnce(TriageHttpServices triage, CircuitBreakerRegistry breakers) {
					return (args) -> {
						CatalogApi catalog = triage.createClient("catalog", CatalogApi.class,
								RestClient.builder().baseUrl("http://127.0.0.1:9").build());
						try {
							catalog.item("1");
						}
						catch (UpstreamTransportException ex) {
							System.out.println("Catalog call ended: " + ex.getClass().getSimpleName() + " "
									+ ex.failure() + ", breaker 'catalog': " + breakers.find("catalog").isPresent());
						}
					};
				}

			}
			""";

	@Test
	void theDocsDependenciesBuildAnApplicationWithoutFeignThatStartsAndCallsUnderTriage() throws Exception {
		String quickStart = ThrowawayApplication.xmlUnder(
				Files.readString(ThrowawayApplication.ROOT.resolve("README.md")), "## Quick start",
				ThrowawayApplication.HEADING);
		String dependencies = ThrowawayApplication.xmlUnder(
				Files.readString(ThrowawayApplication.ROOT.resolve("docs/http-service-clients.md")),
				"## Without Spring Cloud OpenFeign", ThrowawayApplication.HEADING);
		assertThat(dependencies).contains("<artifactId>" + ThrowawayApplication.STARTER + "</artifactId>");
		int start = quickStart.lastIndexOf("<dependencies>");
		int end = quickStart.lastIndexOf("</dependencies>") + "</dependencies>".length();
		assertThat(start).as("the Quick start's own <dependencies>").isGreaterThan(quickStart.indexOf("</dependencyManagement>"));
		String pom = quickStart.substring(0, start) + dependencies.strip() + quickStart.substring(end);
		ThrowawayApplication application = ThrowawayApplication.create("without-openfeign-app", pom, "",
				Map.of("CatalogApplication.java", APPLICATION));

		List<String> resolved = application.build();

		assertThat(resolved)
			.anyMatch((line) -> line.contains("dev.triage:" + ThrowawayApplication.STARTER + ":jar:0.1.0-SNAPSHOT"))
			.anyMatch((line) -> line.contains("org.apache.httpcomponents.client5:httpclient5:jar:"))
			.noneMatch((line) -> line.contains("io.github.openfeign:"))
			.noneMatch((line) -> line.contains("spring-cloud-openfeign"));
		String output = application.start("CatalogApplication", "Catalog call ended:",
				"--triage.clients.catalog.deadline=5s");
		assertThat(output).contains("Started CatalogApplication")
			.contains("Catalog call ended: UpstreamTransportException CONNECTION_REFUSED, breaker 'catalog': true")
			.contains("triage.clients.catalog applies to the HTTP service client or group of that name")
			.doesNotContain("Feign");
	}

}
