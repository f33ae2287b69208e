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

import java.util.function.Supplier;

import dev.triage.TriageHttpServices;
import dev.triage.engine.ManagedClients;
import dev.triage.fallback.FallbackResolver;
import dev.triage.restclient.HttpServiceGroups;
import dev.triage.restclient.ManagedHttpServices;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * Triage for Spring's HTTP service clients ({@code @HttpExchange} on {@code RestClient}) and plain
 * {@code RestClient}s: the {@link TriageHttpServices} bean.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ RestClient.class, HttpServiceProxyFactory.class })
class TriageHttpServicesConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TriageHttpServices triageHttpServices(ManagedClients clients, TriageProperties properties,
			FallbackResolver fallbacks) {
		return new ManagedHttpServices(clients, (name) -> {
			TriageProperties.Client client = properties.getClients().get(name);
			return client == null || client.isEnabled();
		}, fallbacks::forClient);
	}

	/**
	 * Spring Framework 7's HTTP service groups, each managed as the client named after its group.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = HttpServiceGroups.CONFIGURER)
	static class Groups {

		@Bean
		static FactoryBean<Object> triageHttpServiceGroups(ObjectProvider<TriageHttpServices> services,
				ConfigurableListableBeanFactory beanFactory, Environment environment) {
			return configurer(HttpServiceGroups.CONFIGURER, beanFactory, () -> new HttpServiceGroups(
					(ManagedHttpServices) services.getObject(),
					(group) -> environment.getProperty("spring.http.serviceclient." + group + ".base-url"),
					new HttpServiceGroupChecks(beanFactory, environment))
				.configurer(beanFactory.getBeanClassLoader()));
		}

		/**
		 * Puts the type of each configurer above (a Framework 7 type, which this jar cannot name) on its bean
		 * definition. Spring's AOT processing ({@code process-aot}, native images) writes a bean's type as its
		 * definition says, here {@code FactoryBean<Object>}: an AOT-built application then found no group
		 * configurer of Triage's, and its HTTP service groups went unmanaged without a word.
		 * @return the post-processor
		 */
		@Bean
		static BeanFactoryPostProcessor triageHttpServiceGroupConfigurerTypes() {
			return (beanFactory) -> {
				objectType(beanFactory, "triageHttpServiceGroups", HttpServiceGroups.CONFIGURER);
				objectType(beanFactory, "triageHttpServiceGroupsLast", HttpServiceGroups.CONFIGURER);
				objectType(beanFactory, "triageWebClientHttpServiceGroups", HttpServiceGroups.WEB_CLIENT_CONFIGURER);
			};
		}

		private static void objectType(ConfigurableListableBeanFactory beanFactory, String beanName, String type) {
			ClassLoader classLoader = beanFactory.getBeanClassLoader();
			if (beanFactory.containsBeanDefinition(beanName) && ClassUtils.isPresent(type, classLoader)
					&& beanFactory.getBeanDefinition(beanName) instanceof RootBeanDefinition definition) {
				definition.setTargetType(ResolvableType.forClassWithGenerics(FactoryBean.class,
						ClassUtils.resolveClassName(type, classLoader)));
			}
		}

		/**
		 * Checks the request factory of each managed group once the application's own configurers ran.
		 */
		@Bean
		static FactoryBean<Object> triageHttpServiceGroupsLast(ObjectProvider<TriageHttpServices> services,
				ConfigurableListableBeanFactory beanFactory) {
			return configurer(HttpServiceGroups.CONFIGURER, beanFactory, () -> HttpServiceGroups
				.lastConfigurer((ManagedHttpServices) services.getObject(), beanFactory.getBeanClassLoader()));
		}

		/**
		 * {@code WebClient} groups are not managed: noted, so that the endpoint lists them as such.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = HttpServiceGroups.WEB_CLIENT_CONFIGURER)
		static class WebClientGroups {

			@Bean
			static FactoryBean<Object> triageWebClientHttpServiceGroups(ObjectProvider<TriageHttpServices> services,
					ObjectProvider<TriageProperties> properties, ConfigurableListableBeanFactory beanFactory) {
				return configurer(HttpServiceGroups.WEB_CLIENT_CONFIGURER, beanFactory,
						() -> HttpServiceGroups.webClientConfigurer((ManagedHttpServices) services.getObject(),
								(group) -> properties.getObject().getClients().containsKey(group)
										&& properties.getObject().getClients().get(group).isEnabled(),
								beanFactory.getBeanClassLoader()));
			}

		}

		/**
		 * A configurer of a Framework 7 type reached by name (the jar serves Framework 6.2 too), made when asked for.
		 */
		private static FactoryBean<Object> configurer(String type, ConfigurableListableBeanFactory beanFactory,
				Supplier<Object> configurer) {
			return new FactoryBean<>() {

				@Override
				public Object getObject() {
					return configurer.get();
				}

				@Override
				public Class<?> getObjectType() {
					return ClassUtils.resolveClassName(type, beanFactory.getBeanClassLoader());
				}

			};
		}

	}

}
