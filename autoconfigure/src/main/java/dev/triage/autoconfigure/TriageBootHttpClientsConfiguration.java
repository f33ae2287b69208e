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

import dev.triage.engine.AttemptAbortInterceptor;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Triage does not manage the application's other HTTP clients, but the starter brings Apache HttpClient 5, and
 * Spring Boot then builds {@code RestClient}, {@code RestTemplate} and {@code @HttpExchange} clients on it
 * instead of the JDK's client. HttpClient 5 retries on its own (I/O errors, 429/503 with {@code Retry-After});
 * the JDK client did not. So that adding the starter changes nothing about those clients' traffic, Boot-built
 * HttpClient 5 clients get no automatic retries.
 * <p>
 * Done on Boot's request-factory builder bean rather than with a
 * {@code ClientHttpRequestFactoryBuilderCustomizer}: that interface moved package between Spring Boot 3.5 and 4,
 * the builder did not, and this jar serves both lines.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ HttpClientBuilder.class, HttpComponentsClientHttpRequestFactoryBuilder.class })
class TriageBootHttpClientsConfiguration {

	@Bean
	static BeanPostProcessor triageNoHiddenRetriesInBootHttpClients() {
		return withoutHiddenRetries(true);
	}

	/**
	 * Return what builds Boot's HttpClient 5 clients without automatic retries.
	 * @param bounded whether their attempts also get Triage's attempt bound (inert outside a managed call)
	 * @return the bean post-processor of Boot's request-factory builder
	 */
	static BeanPostProcessor withoutHiddenRetries(boolean bounded) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof HttpComponentsClientHttpRequestFactoryBuilder builder) {
					return builder.withHttpClientCustomizer((client) -> {
						client.disableAutomaticRetries();
						if (bounded) {
							AttemptAbortInterceptor.addTo(client);
						}
					});
				}
				return bean;
			}

		};
	}

}
