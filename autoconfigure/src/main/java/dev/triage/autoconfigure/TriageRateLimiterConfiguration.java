package dev.triage.autoconfigure;

import dev.triage.overload.RateLimit;
import dev.triage.overload.RateLimits;
import dev.triage.overload.Resilience4jRateLimit;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
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
	@ConditionalOnBean(RateLimiterRegistry.class)
	RateLimits triageRateLimits(RateLimiterRegistry registry, Environment environment) {
		return (client) -> ApplicationSettings.configured(environment, "resilience4j.ratelimiter.instances." + client)
				? new Resilience4jRateLimit(registry.rateLimiter(client)) : RateLimit.NONE;
	}

}
