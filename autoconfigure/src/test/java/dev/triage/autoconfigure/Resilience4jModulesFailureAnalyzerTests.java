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

import java.util.List;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.BeanDefinitionOverrideException;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Resilience4j's Spring Boot 3 and Spring Boot 4 modules side by side (what Spring Cloud CircuitBreaker brings on
 * Spring Boot 4): the failure as Spring reports it, analysed without a context.
 */
class Resilience4jModulesFailureAnalyzerTests {

	private static final String SPRING_BOOTS_ANALYZER = "org.springframework.boot.diagnostics.analyzer."
			+ "BeanDefinitionOverrideFailureAnalyzer";

	private static final String BOOT3_ENDPOINT = "class path resource [io/github/resilience4j/springboot3/circuitbreaker/"
			+ "autoconfigure/CircuitBreakerAutoConfiguration$CircuitBreakerEndpointAutoConfiguration.class]";

	private static final String BOOT4_ENDPOINT = "class path resource [io/github/resilience4j/springboot/circuitbreaker/"
			+ "autoconfigure/CircuitBreakerAutoConfiguration$CircuitBreakerEndpointAutoConfiguration.class]";

	@Test
	void bothResilience4jModulesDefiningOneBeanIsAnalysedWithTheExclusionToAdd() {
		FailureAnalysis analysis = new Resilience4jModulesFailureAnalyzer()
			.analyze(new IllegalStateException(overriding("circuitBreakerEndpoint", BOOT4_ENDPOINT, BOOT3_ENDPOINT)));

		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("resilience4j-spring-boot3")
			.contains("resilience4j-spring-boot4")
			.contains("'circuitBreakerEndpoint'")
			.contains(BOOT3_ENDPOINT)
			.contains(BOOT4_ENDPOINT);
		assertThat(analysis.getAction()).contains("spring-cloud-starter-circuitbreaker-resilience4j")
			.contains("<exclusion>")
			.contains("<artifactId>resilience4j-spring-boot3</artifactId>");
	}

	@Test
	void eitherRegistrationOrderIsRecognised() {
		assertThat(new Resilience4jModulesFailureAnalyzer()
			.analyze(overriding("circuitBreakerEndpoint", BOOT3_ENDPOINT, BOOT4_ENDPOINT))).isNotNull();
	}

	@Test
	void otherBeanOverridingIsLeftToSpringBoot() {
		FailureAnalysis analysis = new Resilience4jModulesFailureAnalyzer().analyze(overriding("inventoryClient",
				"class path resource [com/example/One.class]", "class path resource [com/example/Two.class]"));

		assertThat(analysis).isNull();
	}

	@Test
	void twoDefinitionsFromTheSameResilience4jModuleAreLeftToSpringBoot() {
		assertThat(new Resilience4jModulesFailureAnalyzer()
			.analyze(overriding("circuitBreakerEndpoint", BOOT4_ENDPOINT, BOOT4_ENDPOINT))).isNull();
	}

	@Test
	void isRegisteredAndAnalysesBeforeSpringBootsOwnBeanOverridingAnalyzer() {
		var analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
					SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(getClass())));
		AnnotationAwareOrderComparator.sort(analyzers);

		List<String> names = analyzers.stream().map((analyzer) -> analyzer.getClass().getName()).toList();
		assertThat(names).contains(SPRING_BOOTS_ANALYZER);
		assertThat(names.indexOf(Resilience4jModulesFailureAnalyzer.class.getName()))
			.isLessThan(names.indexOf(SPRING_BOOTS_ANALYZER));
	}

	private static BeanDefinitionOverrideException overriding(String bean, String registered, String existing) {
		RootBeanDefinition registering = new RootBeanDefinition();
		registering.setResourceDescription(registered);
		RootBeanDefinition present = new RootBeanDefinition();
		present.setResourceDescription(existing);
		return new BeanDefinitionOverrideException(bean, registering, present);
	}

}
