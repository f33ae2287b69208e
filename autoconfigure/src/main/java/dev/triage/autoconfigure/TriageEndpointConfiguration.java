package dev.triage.autoconfigure;

import java.time.Clock;

import dev.triage.actuate.RecentFailures;
import dev.triage.actuate.TriageEndpoint;
import dev.triage.feign.ManagedClients;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code triage} actuator endpoint and the recent-failure store behind it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(TriageEndpoint.class)
class TriageEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RecentFailures triageRecentFailures() {
		return new RecentFailures(Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	TriageEndpoint triageEndpoint(ManagedClients clients, RecentFailures failures) {
		return new TriageEndpoint(clients, failures);
	}

}
