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
 * The {@code triage} actuator endpoint and the recent-failure store behind it. The endpoint condition sits on
 * the bean methods: on the class it would be loaded, and fail, before the class check could skip it in an
 * application without Actuator.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
class TriageEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(TriageEndpoint.class)
	RecentFailures triageRecentFailures() {
		return new RecentFailures(Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(TriageEndpoint.class)
	TriageEndpoint triageEndpoint(ManagedClients clients, RecentFailures failures) {
		return new TriageEndpoint(clients, failures);
	}

}
