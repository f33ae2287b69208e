package dev.triage.autoconfigure;

import dev.triage.feign.ManagedClients;
import dev.triage.metrics.OverloadMetrics;
import dev.triage.metrics.TriageMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Triage's meters, bound by Spring Boot's {@code MeterRegistry} post-processing like any {@code MeterBinder}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterRegistry.class)
class TriageMetricsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TriageMetrics triageMetrics() {
		return new TriageMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	OverloadMetrics triageOverloadMetrics(ManagedClients clients) {
		return new OverloadMetrics(clients);
	}

}
