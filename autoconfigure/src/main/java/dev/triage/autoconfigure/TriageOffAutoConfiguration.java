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

import dev.triage.TriageHttpServices;
import dev.triage.restclient.UnmanagedHttpServices;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * Triage switched off ({@code triage.enabled=false}, the switch of an incident, taken at the next start): it manages
 * nothing, and an application that builds clients with {@link TriageHttpServices} still starts, with plain clients.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "triage.enabled", havingValue = false)
@ConditionalOnClass({ RestClient.class, HttpServiceProxyFactory.class })
public class TriageOffAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TriageHttpServices triageHttpServices() {
		return new UnmanagedHttpServices();
	}

	/**
	 * Switched off, the starter still brings Apache HttpClient 5, on which Spring Boot builds the application's
	 * {@code RestClient}s instead of the JDK's client: they are built without HttpClient 5's own retries, as while
	 * Triage is on, so that switching Triage off does not double what they send (a 503 with {@code Retry-After},
	 * a reset GET).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HttpClientBuilder.class, HttpComponentsClientHttpRequestFactoryBuilder.class })
	static class BootHttpClients {

		@Bean
		static BeanPostProcessor triageOffNoHiddenRetriesInBootHttpClients() {
			return TriageBootHttpClientsConfiguration.withoutHiddenRetries(false);
		}

	}

}
