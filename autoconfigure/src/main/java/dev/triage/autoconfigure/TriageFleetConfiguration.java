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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.triage.fleet.FleetRateLimit;
import dev.triage.fleet.FleetStatus;
import dev.triage.fleet.FleetStore;
import dev.triage.fleet.LocalRateLimit;
import dev.triage.fleet.SharedPauses;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RateLimits;
import dev.triage.policy.InvalidPolicyException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The fleet (SPEC §13, docs/fleet.md): with {@code triage.fleet.store=local} (the default) nothing is shared
 * and a client's {@code fleet-rate-limit} is this instance's share of it; with {@code redis} pauses and fleet
 * rate limits are shared through the application's Spring Data Redis connection.
 */
@Configuration(proxyBeanMethods = false)
class TriageFleetConfiguration {

	static final String STORE = "triage.fleet.store";

	static final String REDIS_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

	@Bean
	@ConditionalOnProperty(name = STORE, havingValue = "local", matchIfMissing = true)
	RateLimits triageFleetRateLimits(TriageProperties properties) {
		Map<String, FleetRateLimit.Settings> limits = limits(properties);
		int instances = properties.getFleet().getInstances();
		return (client) -> {
			FleetRateLimit.Settings settings = limits.get(client);
			return (settings != null) ? share(client, settings, instances) : RateLimit.NONE;
		};
	}

	/**
	 * Validate the fleet settings and resolve each client's fleet rate limit.
	 */
	static Map<String, FleetRateLimit.Settings> limits(TriageProperties properties) {
		TriageProperties.Fleet fleet = properties.getFleet();
		check(fleet.getTimeout() != null && fleet.getTimeout().toMillis() >= 1, "triage.fleet.timeout",
				fleet.getTimeout(), "a positive duration, e.g. 50ms");
		check(fleet.getInstances() >= 1, "triage.fleet.instances", fleet.getInstances(),
				"a whole number of at least 1, e.g. 3");
		check(fleet.getKeyPrefix() == null || !fleet.getKeyPrefix().isBlank(), "triage.fleet.key-prefix",
				fleet.getKeyPrefix(), "a non-empty text, e.g. triage:shop:");
		Map<String, FleetRateLimit.Settings> limits = new LinkedHashMap<>();
		properties.getClients().forEach((client, settings) -> {
			TriageProperties.FleetRateLimit limit = settings.getFleetRateLimit();
			String prefix = "triage.clients." + client + ".fleet-rate-limit";
			if (limit.getLimitForPeriod() == null) {
				check(limit.getLimitRefreshPeriod() == null && limit.getLease() == null, prefix + ".limit-for-period",
						null, "a whole number of at least 1 when the fleet rate limit is configured, e.g. 100");
				return;
			}
			int permits = limit.getLimitForPeriod();
			Duration period = (limit.getLimitRefreshPeriod() != null) ? limit.getLimitRefreshPeriod()
					: Duration.ofSeconds(1);
			check(permits >= 1, prefix + ".limit-for-period", permits, "a whole number of at least 1, e.g. 100");
			check(period.toMillis() >= 1, prefix + ".limit-refresh-period", period, "a positive duration, e.g. 1s");
			int lease = (limit.getLease() != null) ? limit.getLease() : FleetRateLimit.Settings.defaultLease(permits);
			check(lease >= 1 && lease <= permits, prefix + ".lease", lease,
					"a whole number from 1 to limit-for-period (" + permits + "), e.g. " 
							+ FleetRateLimit.Settings.defaultLease(permits));
			limits.put(client, new FleetRateLimit.Settings(permits, period, lease));
		});
		return limits;
	}

	static LocalRateLimit share(String client, FleetRateLimit.Settings settings, int instances) {
		return new LocalRateLimit(client, Math.max(1, settings.limitForPeriod() / instances),
				settings.limitRefreshPeriod(), System::nanoTime);
	}

	private static void check(boolean valid, String property, Object value, String allowed) {
		if (!valid) {
			throw new InvalidPolicyException(property, value, allowed);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = REDIS_FACTORY)
	@ConditionalOnProperty(name = STORE, havingValue = "redis")
	static class RedisFleet {

		@Bean(destroyMethod = "close")
		FleetStore triageFleetStore(ObjectProvider<RedisConnectionFactory> connections, TriageProperties properties,
				Environment environment) {
			limits(properties);
			RedisConnectionFactory connection = connections.getIfAvailable();
			if (connection == null) {
				throw new InvalidPolicyException(STORE, "redis",
						"local, or redis with a Redis connection (spring-boot-starter-data-redis, spring.data.redis.*)");
			}
			TriageProperties.Fleet fleet = properties.getFleet();
			String prefix = (fleet.getKeyPrefix() != null) ? fleet.getKeyPrefix()
					: "triage:" + environment.getProperty("spring.application.name", "application") + ":";
			return new FleetStore(connection, prefix, fleet.getTimeout(), Duration.ofSeconds(1));
		}

		@Bean(destroyMethod = "close")
		SharedPauses triageSharedPauses(FleetStore store) {
			return new SharedPauses(store);
		}

		/**
		 * Subscribes and reads the pauses in Redis once every client's pauses exist, before a web server
		 * starts; unsubscribes before the Redis connection stops.
		 */
		@Bean
		SmartLifecycle triageSharedPausesLifecycle(SharedPauses pauses) {
			return new SmartLifecycle() {

				private volatile boolean running;

				@Override
				public void start() {
					pauses.start();
					this.running = true;
				}

				@Override
				public void stop() {
					pauses.close();
					this.running = false;
				}

				@Override
				public boolean isRunning() {
					return this.running;
				}

				@Override
				public int getPhase() {
					return Integer.MAX_VALUE - 4096;
				}

			};
		}

		@Bean
		RateLimits triageFleetRateLimits(FleetStore store, TriageProperties properties) {
			Map<String, FleetRateLimit.Settings> limits = limits(properties);
			int instances = properties.getFleet().getInstances();
			return (client) -> {
				FleetRateLimit.Settings settings = limits.get(client);
				return (settings != null)
						? new FleetRateLimit(client, settings, store, share(client, settings, instances))
						: RateLimit.NONE;
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass(REDIS_FACTORY)
	@ConditionalOnProperty(name = STORE, havingValue = "redis")
	static class NoRedis {

		@Bean
		FleetStatus triageFleetStore() {
			throw new InvalidPolicyException(STORE, "redis",
					"local, or redis with Spring Data Redis on the classpath (spring-boot-starter-data-redis)");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class FleetMeters {

		@Bean
		MeterBinder triageFleetMeters(ObjectProvider<FleetStatus> fleet) {
			return (registry) -> fleet.ifAvailable((status) -> FunctionCounter
				.builder("triage.fleet.errors", status, FleetStatus::errors)
				.description("Redis commands of triage.fleet that failed or took longer than triage.fleet.timeout")
				.register(registry));
		}

	}

}
