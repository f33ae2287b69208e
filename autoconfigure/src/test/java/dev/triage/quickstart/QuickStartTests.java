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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.triage.UpstreamResponseException;
import dev.triage.support.WireMocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The README's Quick start, as written: its Java (this package's {@code ShopApplication} and
 * {@code InventoryClient}) and its YAML ({@code quickstart/application.yml}) are checked to appear verbatim in
 * the README, then the application is started and called.
 */
class QuickStartTests {

	@RegisterExtension
	static WireMockExtension upstream = WireMocks.loopback();

	private static final Path HERE = Path.of("src", "test", "java", "dev", "triage", "quickstart");

	@Test
	void theReadmeShowsExactlyTheCodeAndYamlThatRunHere() throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"));

		assertThat(readme).contains(snippet(HERE.resolve("ShopApplication.java")))
			.contains(snippet(HERE.resolve("InventoryClient.java")))
			.contains(Files.readString(Path.of("src", "test", "resources", "quickstart", "application.yml")).strip());
	}

	@Test
	void theQuickStartApplicationStartsAndItsClientIsManaged() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));
		SpringApplication application = new SpringApplication(ShopApplication.class);
		try (ConfigurableApplicationContext context = application.run("--spring.main.web-application-type=none",
				"--spring.config.location=classpath:quickstart/application.yml", "--inventory.url=" + upstream.baseUrl(),
				"--logging.level.dev.triage.calls=WARN")) {
			InventoryClient inventory = context.getBean(InventoryClient.class);

			Throwable thrown = catchThrowable(() -> inventory.item("42"));

			assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
			assertThat(upstream.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount())
				.as("the YAML's 503 row: 2 attempts").isEqualTo(2);
		}
	}

	/**
	 * The source without its license header, package and import lines, tabs as four spaces: what the README
	 * shows.
	 */
	private static String snippet(Path source) throws IOException {
		return Files.readAllLines(source)
			.stream()
			.dropWhile((line) -> !line.startsWith("package "))
			.filter((line) -> !line.startsWith("package ") && !line.startsWith("import "))
			.map((line) -> line.replace("\t", "    "))
			.collect(Collectors.joining("\n"))
			.strip();
	}

}
