package dev.triage.autoconfigure;

import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.http.client.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Triage does not manage the application's other HTTP clients, but the starter brings Apache HttpClient 5, and
 * Spring Boot then builds {@code RestClient}, {@code RestTemplate} and {@code @HttpExchange} clients on it
 * instead of the JDK's client. HttpClient 5 retries on its own (I/O errors, 429/503 with {@code Retry-After});
 * the JDK client did not. So that adding the starter changes nothing about those clients' traffic, Boot-built
 * HttpClient 5 clients get no automatic retries.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ HttpClientBuilder.class, HttpComponentsClientHttpRequestFactoryBuilder.class,
		ClientHttpRequestFactoryBuilderCustomizer.class })
class TriageBootHttpClientsConfiguration {

	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> triageNoHiddenRetriesInBootHttpClients() {
		return (builder) -> builder.withHttpClientCustomizer(HttpClientBuilder::disableAutomaticRetries);
	}

}
