package dev.triage.autoconfigure;

import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Triage's breaker defaults under the application's Resilience4j configuration, when Resilience4j's Spring Boot
 * module builds the registry from properties.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(CommonCircuitBreakerConfigurationProperties.class)
class TriageBreakerConfiguration {

	@Bean
	static BreakerDefaults triageBreakerDefaults(ObjectProvider<FeignClientSpecification> specifications,
			Environment environment) {
		return new BreakerDefaults(specifications, environment);
	}

}
