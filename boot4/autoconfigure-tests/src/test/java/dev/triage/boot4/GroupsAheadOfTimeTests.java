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
package dev.triage.boot4;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.triage.support.AheadOfTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * Spring's AOT processing of an application with an HTTP service group: the bean definitions it generates must
 * give Triage's group configurers their type, or an AOT-built application finds none of them and its groups go
 * unmanaged without a word (they were written as {@code FactoryBean<Object>}).
 */
class GroupsAheadOfTimeTests {

	@TempDir
	Path output;

	@Test
	void triagesGroupConfigurersKeepTheirTypeInTheGeneratedBeanDefinitions() throws IOException {
		// Resilience4j's refresh-scoped registries cannot be processed ahead of time (docs/boot-lines.md).
		AheadOfTime.process(GroupApplication.class, this.output,
				"--spring.http.serviceclient.catalog.base-url=http://127.0.0.1:9", "--spring.cloud.refresh.enabled=false",
				"--spring.main.web-application-type=none");

		String definitions = Files.readString(this.output
			.resolve("sources/dev/triage/autoconfigure/TriageHttpServicesConfiguration__BeanDefinitions.java"));
		assertThat(definitions)
			.contains("getTriageHttpServiceGroupsBeanDefinition()")
			.contains("ResolvableType.forClassWithGenerics(FactoryBean.class, RestClientHttpServiceGroupConfigurer.class)")
			.doesNotContain("ResolvableType.forClassWithGenerics(FactoryBean.class, Object.class)");
	}

	public interface ShopApi {

		@GetExchange("/items")
		String items();

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportHttpServices(group = "catalog", types = ShopApi.class)
	public static class GroupApplication {

		public static void main(String[] args) {
			SpringApplication.run(GroupApplication.class, args);
		}

	}

}
