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

package dev.triage.sample;

import java.io.IOException;
import java.time.Duration;

import dev.triage.TriageHttpServices;
import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import dev.triage.sample.chaos.ChaosUpstream;
import dev.triage.sample.chaos.Gateway;
import dev.triage.sample.clients.BulkClient;
import dev.triage.sample.clients.CatalogClient;
import dev.triage.sample.clients.DeadLetters;
import dev.triage.sample.clients.InventoryClient;
import dev.triage.sample.clients.InventoryFallback;
import dev.triage.sample.clients.ItemCache;
import dev.triage.sample.clients.LimitedClient;
import dev.triage.sample.clients.LlmClient;
import dev.triage.sample.clients.SmsClient;
import dev.triage.sample.clients.StormClient;
import dev.triage.sample.clients.WarehouseApi;
import dev.triage.sample.clients.WarehouseFallback;
import dev.triage.sample.tour.FleetScene;
import dev.triage.sample.tour.ReloadScene;
import dev.triage.sample.tour.LastCall;
import dev.triage.sample.tour.Tour;
import dev.triage.sample.tour.TourRunner;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.web.client.RestClient;

/**
 * The demo's moving parts: the chaos upstream and the 599 gateway on loopback, the inventory fallback, and the
 * tour.
 */
@Configuration(proxyBeanMethods = false)
class DemoConfiguration {

	@Bean(destroyMethod = "close")
	@Primary
	ChaosUpstream chaosUpstream(@Value("${demo.upstream-port}") int port,
			@Value("${demo.slow}") Duration slow) throws IOException {
		return new ChaosUpstream(port, slow.toMillis(), 2);
	}

	@Bean(destroyMethod = "close")
	Gateway gateway(@Value("${demo.gateway-port}") int port, ChaosUpstream upstream,
			@Value("${demo.gateway-timeout}") Duration timeout) throws IOException {
		return new Gateway(port, upstream.url(), timeout);
	}

	@Bean(destroyMethod = "close")
	ChaosUpstream backupUpstream(@Value("${demo.backup-port}") int port, @Value("${demo.slow}") Duration slow)
			throws IOException {
		return new ChaosUpstream(port, slow.toMillis(), 2).named("backup");
	}

	@Bean
	DeadLetters deadLetters() {
		return new DeadLetters();
	}

	@Bean
	ItemCache itemCache() {
		return new ItemCache();
	}

	@Bean
	InventoryFallback inventoryFallback(ItemCache cache) {
		return new InventoryFallback(cache);
	}

	/**
	 * The HTTP service client: an {@code @HttpExchange} interface on a {@code RestClient} built from Spring Boot's
	 * {@code RestClient.Builder} (Apache HttpClient 5, whose own retries Triage turns off), managed as client
	 * {@code warehouse}. The same on Spring Boot 3.5 and 4.
	 */
	@Bean
	WarehouseApi warehouseApi(RestClient.Builder builder, TriageHttpServices triage,
			@Value("${demo.gateway-url}") String gatewayUrl) {
		return triage.createClient("warehouse", WarehouseApi.class, builder.baseUrl(gatewayUrl).build());
	}

	@Bean
	WarehouseFallback warehouseFallback(ItemCache cache) {
		return new WarehouseFallback(cache);
	}

	@Bean
	LastCall lastCall() {
		return new LastCall();
	}

	@Bean
	Tour tour(CatalogClient catalog, InventoryClient inventory, LlmClient llm, ItemCache cache, ChaosUpstream upstream,
			Gateway gateway, ManagedClients clients, CircuitBreakerRegistry breakers, LastCall lastCall,
			StormClient storm, BulkClient bulk, LimitedClient limited, RateLimiterRegistry limiters, SmsClient sms,
			@Qualifier("backupUpstream") ChaosUpstream backupUpstream, DeadLetters deadLetters, WarehouseApi warehouse,
			BulkheadRegistry bulkheads, FleetScene fleet, ReloadScene reload) {
		return new Tour(catalog, inventory, llm, cache, upstream, gateway, clients, breakers, lastCall,
				new Tour.OverloadClients(storm, bulk, limited), limiters,
				new Tour.Failover(sms, backupUpstream, deadLetters), warehouse, bulkheads, fleet, reload);
	}

	/**
	 * The settings changed while the application runs (SPEC §12).
	 */
	@Bean
	ReloadScene reloadScene(CatalogClient catalog, ChaosUpstream upstream, ManagedClients clients,
			CircuitBreakerRegistry breakers, ConfigHistory history, ConfigurableApplicationContext context) {
		return new ReloadScene(catalog, upstream, clients, breakers, history, context);
	}

	/**
	 * The fleet scene: three more instances sharing a {@code redis-server} the tour starts, when there is one.
	 */
	@Bean
	FleetScene fleetScene(ChaosUpstream upstream, @Value("${demo.fleet.enabled:true}") boolean enabled,
			@Value("${demo.fleet.redis-server:}") String redisServer) {
		return new FleetScene(upstream, enabled, redisServer);
	}

	@Bean
	@ConditionalOnProperty(name = "demo.tour", havingValue = "true", matchIfMissing = true)
	TourRunner tourRunner(Tour tour, ConfigurableApplicationContext context,
			@Value("${demo.exit-after-tour:false}") boolean exitAfterTour, MeterRegistry meters) {
		return new TourRunner(tour, context, exitAfterTour, meters);
	}

}
