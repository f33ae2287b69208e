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
package dev.triage.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.triage.TriageHttpServices;
import dev.triage.engine.AttemptAbortInterceptor;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The test clients as HTTP service clients, beans {@code httpInventory} and {@code httpBilling}: each on a
 * {@code RestClient} over Apache HttpClient 5 with the timeouts the Feign client of that name has (the
 * {@code spring.cloud.openfeign.client.config.<name>.*} properties the tests set), its own retries off and the
 * attempt bound armed and idle connections checked before reuse, as Triage does for Spring Cloud OpenFeign's
 * HttpClient 5.
 */
@Configuration(proxyBeanMethods = false)
public class HttpServiceClients {

	@Bean
	InventoryClient httpInventory(TriageHttpServices triage, Environment environment) {
		return triage.createClient("inventory", InventoryClient.class,
				restClient(environment, "inventory", environment.getProperty("test.upstream.inventory")));
	}

	@Bean
	BillingClient httpBilling(TriageHttpServices triage, Environment environment) {
		return triage.createClient("billing", BillingClient.class,
				restClient(environment, "billing", environment.getProperty("test.upstream.billing")));
	}

	/**
	 * Return a RestClient for a client, with the Feign client's timeouts.
	 * @param environment the environment
	 * @param name the client's name
	 * @param baseUrl the base URL
	 * @return the RestClient
	 */
	public static RestClient restClient(Environment environment, String name, String baseUrl) {
		String prefix = "spring.cloud.openfeign.client.config." + name + ".";
		int connect = environment.getProperty(prefix + "connect-timeout", Integer.class, 10_000);
		int read = environment.getProperty(prefix + "read-timeout", Integer.class, 60_000);
		CloseableHttpClient client = AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setDefaultConnectionConfig(
						ConnectionConfig.custom()
							.setConnectTimeout(connect, TimeUnit.MILLISECONDS)
							.setValidateAfterInactivity(TimeValue.ofSeconds(1))
							.build())
				.build())
			.build();
		HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(client);
		factory.setReadTimeout(Duration.ofMillis(read));
		return RestClient.builder().baseUrl(baseUrl).requestFactory(factory).build();
	}

}
