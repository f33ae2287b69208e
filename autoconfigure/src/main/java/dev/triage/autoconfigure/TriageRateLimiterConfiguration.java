package dev.triage.autoconfigure;

import dev.triage.overload.RateLimit;
import dev.triage.overload.RateLimits;
import dev.triage.overload.Resilience4jRateLimit;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A client whose name has a configured Resilience4j rate limiter
 * ({@code resilience4j.ratelimiter.instances.<client>}) takes a permit before every attempt.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RateLimiterRegistry.class)
class TriageRateLimiterConfiguration {

	@Bean
	RateLimits triageRateLimits(ObjectProvider<RateLimiterRegistry> registry, Environment environment) {
		return (client) -> {
			RateLimiterRegistry limiters = registry.getIfAvailable();
			boolean configured = ApplicationSettings.configured(environment,
					"resilience4j.ratelimiter.instances." + client);
			return (limiters != null && configured) ? new Resilience4jRateLimit(limiters.rateLimiter(client))
					: RateLimit.NONE;
		};
	}

}
