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

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionOverrideException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Recognises Resilience4j's Spring Boot 3 module and its Spring Boot 4 module on one classpath (both define
 * {@code circuitBreakerEndpoint} and other beans) and names the exclusion that fixes it. On Spring Boot 4 this is
 * what {@code spring-cloud-starter-circuitbreaker-resilience4j} next to {@code triage-spring-boot4-starter} gives:
 * Spring Cloud 2025.1 still depends on {@code resilience4j-spring-boot3}. Runs before Spring Boot's own analysis of
 * bean overriding, which would only suggest allowing it.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class Resilience4jModulesFailureAnalyzer extends AbstractFailureAnalyzer<BeanDefinitionOverrideException> {

	private static final String BOOT3_MODULE = "io.github.resilience4j.springboot3.";

	private static final String BOOT4_MODULE = "io.github.resilience4j.springboot.";

	static final String EXCLUSION = """
			<dependency>
			  <groupId>org.springframework.cloud</groupId>
			  <artifactId>spring-cloud-starter-circuitbreaker-resilience4j</artifactId>
			  <exclusions>
			    <exclusion>
			      <groupId>io.github.resilience4j</groupId>
			      <artifactId>resilience4j-spring-boot3</artifactId>
			    </exclusion>
			  </exclusions>
			</dependency>""";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BeanDefinitionOverrideException cause) {
		String registered = origin(cause.getBeanDefinition());
		String existing = origin(cause.getExistingDefinition());
		boolean bothModules = (registered.contains(BOOT3_MODULE) && existing.contains(BOOT4_MODULE))
				|| (registered.contains(BOOT4_MODULE) && existing.contains(BOOT3_MODULE));
		if (!bothModules) {
			return null;
		}
		String description = "Resilience4j's Spring Boot 3 module (resilience4j-spring-boot3) and its Spring Boot 4 "
				+ "module (resilience4j-spring-boot4) are both on the classpath. Both define the bean '"
				+ cause.getBeanName() + "':\n\n    " + cause.getExistingDefinition().getResourceDescription() + "\n    "
				+ cause.getBeanDefinition().getResourceDescription() + "\n";
		return new FailureAnalysis(description, action(), cause);
	}

	private static String action() {
		return "On Spring Boot 4, keep only resilience4j-spring-boot4 (triage-spring-boot4-starter brings it). "
				+ "resilience4j-spring-boot3 usually comes with Spring Cloud CircuitBreaker (mvn dependency:tree "
				+ "-Dincludes=io.github.resilience4j:resilience4j-spring-boot3 shows which dependency brings it); "
				+ "exclude it there:\n\n" + EXCLUSION.indent(4) + "\nOn Spring Boot 3.5, use triage-spring-boot-starter "
				+ "instead of triage-spring-boot4-starter. See Triage's docs/boot-lines.md.";
	}

	private static String origin(BeanDefinition definition) {
		StringBuilder origin = new StringBuilder();
		for (String part : new String[] { definition.getResourceDescription(), definition.getFactoryBeanName(),
				definition.getBeanClassName() }) {
			if (part != null) {
				origin.append(part.replace('/', '.')).append(' ');
			}
		}
		return origin.toString();
	}

}
