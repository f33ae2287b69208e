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
import java.util.List;

import dev.triage.feign.LoadBalancedFeignClient;
import feign.Feign;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The Feign adapter's wiring: Triage's configuration in every Feign client's context, and the Feign clients the
 * application declares.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ Feign.class, FeignClientSpecification.class })
class TriageFeignConfiguration {

	static final String SPECIFICATION_NAME = "default.dev.triage.feign.TriageFeignClientConfiguration";

	/**
	 * Registers Triage's per-client configuration in every Feign client context. Its class name is
	 * {@code "default"}, as for {@code @EnableFeignClients(defaultConfiguration)}: Spring Cloud OpenFeign's AOT
	 * processing takes every other specification for a {@code @FeignClient} bean (with the auto-configuration's
	 * name, {@code process-aot} failed with "className cannot be null").
	 * @return the specification
	 */
	@Bean
	static FeignClientSpecification triageFeignClientSpecification() {
		return new FeignClientSpecification(SPECIFICATION_NAME, "default",
				new Class<?>[] { TriageFeignClientConfiguration.class });
	}

	@Bean
	DeclaredClients triageDeclaredFeignClients(ObjectProvider<FeignClientSpecification> specifications,
			ObjectProvider<FeignHttpClientProperties> httpClientProperties, Environment environment,
			ConfigurableListableBeanFactory beanFactory) {
		return new DeclaredClients(
				FeignClientNames.of(specifications.orderedStream(), environment, beanFactory.getBeanClassLoader()),
				poolTimeout(httpClientProperties.getIfAvailable()));
	}

	/**
	 * Warns at startup, one line per client, where a Feign client's read timeout is longer than its deadline.
	 */
	@Bean
	SmartInitializingSingleton triageTimeoutLayering(DeclaredClients declared, TriageProperties properties,
			ObjectProvider<FeignClientProperties> feignClientProperties) {
		return () -> TimeoutLayering.warnWhereReadTimeoutExceedsDeadline(managed(declared, properties), properties,
				feignClientProperties.getIfAvailable());
	}

	/**
	 * Warns at startup, one line per client, where a Feign client's URL carries user info.
	 */
	@Bean
	SmartInitializingSingleton triageUrlsWithUserInfo(DeclaredClients declared, TriageProperties properties,
			Environment environment, ConfigurableListableBeanFactory beanFactory) {
		return () -> PrimaryUrls.warnOnUserInfo(managed(declared, properties), environment,
				beanFactory.getBeanClassLoader());
	}

	/**
	 * Feign clients without a url send through Spring Cloud LoadBalancer's Feign client, built again for Triage:
	 * without its retries, channels sent to directly, a service without an instance an unknown host.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory",
			"org.springframework.cloud.openfeign.loadbalancer.FeignBlockingLoadBalancerClient" })
	static class LoadBalancedFeignClients {

		@Bean
		static BeanPostProcessor triageLoadBalancedFeignClient() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					return LoadBalancedFeignClient.of(bean);
				}
			};
		}

	}

	/**
	 * Return the contexts of the Feign clients Triage manages (not switched off by
	 * {@code triage.clients.<name>.enabled}).
	 */
	private static List<DeclaredClients.Context> managed(DeclaredClients declared, TriageProperties properties) {
		return declared.contexts()
			.stream()
			.filter((context) -> properties.getClients().get(context.name()) == null
					|| properties.getClients().get(context.name()).isEnabled())
			.toList();
	}

	private static Duration poolTimeout(FeignHttpClientProperties properties) {
		if (properties == null) {
			return null;
		}
		FeignHttpClientProperties.Hc5Properties hc5 = properties.getHc5();
		return Duration.of(hc5.getConnectionRequestTimeout(), hc5.getConnectionRequestTimeoutUnit().toChronoUnit());
	}

}
