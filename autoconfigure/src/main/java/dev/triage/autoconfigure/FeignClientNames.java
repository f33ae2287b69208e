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

import java.util.List;
import java.util.stream.Stream;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Reads the Feign client contexts Spring Cloud OpenFeign registered (one {@link FeignClientSpecification} per
 * {@code @FeignClient}, named after its {@code contextId}, else its name) with the name of each client, as Spring
 * Cloud OpenFeign resolves it: the annotation's {@code name} (or {@code value}), placeholders resolved.
 */
final class FeignClientNames {

	/** Spring Cloud OpenFeign's specification type: check it is present before calling into this class. */
	static final String SPECIFICATION = "org.springframework.cloud.openfeign.FeignClientSpecification";

	private FeignClientNames() {
	}

	/**
	 * Return the Feign clients declared in an application, their pool wait unknown.
	 * @param beanFactory the application's bean factory
	 * @param environment the application's environment
	 * @param classLoader the loader of the client interfaces
	 * @return the declared clients
	 */
	static DeclaredClients declared(ListableBeanFactory beanFactory, Environment environment, ClassLoader classLoader) {
		return new DeclaredClients(
				of(beanFactory.getBeanProvider(FeignClientSpecification.class).orderedStream(), environment, classLoader),
				null);
	}

	static List<DeclaredClients.Context> of(Stream<FeignClientSpecification> specifications, Environment environment,
			ClassLoader classLoader) {
		return specifications.filter((spec) -> !spec.getName().startsWith("default."))
			.map((spec) -> new DeclaredClients.Context(spec.getName(), name(spec, environment, classLoader),
					spec.getClassName()))
			.toList();
	}

	private static String name(FeignClientSpecification spec, Environment environment, ClassLoader classLoader) {
		String className = spec.getClassName();
		if (className != null && ClassUtils.isPresent(className, classLoader)) {
			FeignClient client = AnnotatedElementUtils
				.findMergedAnnotation(ClassUtils.resolveClassName(className, classLoader), FeignClient.class);
			String name = (client != null) ? (StringUtils.hasText(client.name()) ? client.name() : client.value())
					: null;
			if (StringUtils.hasText(name)) {
				return environment.resolvePlaceholders(name).trim();
			}
		}
		return spec.getName();
	}

}
