package dev.triage.autoconfigure;

import dev.triage.feign.AttemptAbortInterceptor;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.openfeign.clientconfig.HttpClient5FeignConfiguration.HttpClientBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Switches off Apache HttpClient 5's own retries (it replays idempotent requests after I/O errors and
 * 429/503 answers with {@code Retry-After}), so the number of requests on the wire is the policy table's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ HttpClientBuilder.class, HttpClientBuilderCustomizer.class })
class TriageHttpClient5Configuration {

	/**
	 * No automatic retries; and the hard bound of each attempt (the call's deadline; three read timeouts for a
	 * trickled answer), which shuts the attempt's connection down when it passes, even mid-body.
	 */
	@Bean
	HttpClientBuilderCustomizer triageHttpClient5() {
		return (builder) -> builder.disableAutomaticRetries()
			.addExecInterceptorFirst(AttemptAbortInterceptor.NAME, new AttemptAbortInterceptor());
	}

}
