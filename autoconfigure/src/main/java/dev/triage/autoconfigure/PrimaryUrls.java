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

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The base URL of each Feign client's primary channel, read the way Spring Cloud OpenFeign builds its target:
 * the {@code @FeignClient} url (placeholders resolved), else
 * {@code spring.cloud.openfeign.client.config.<contextId>.url},
 * else the load-balanced {@code http://<name>}; then the annotation's path. For display only: the call path
 * keeps using the target Feign built.
 */
final class PrimaryUrls {

	private PrimaryUrls() {
	}

	static Map<String, String> of(DeclaredClients declared, Environment environment, ClassLoader classLoader) {
		Map<String, String> urls = new LinkedHashMap<>();
		// Spring Boot 4's HTTP service groups: the group's base URL is its primary channel.
		Binder.get(environment)
			.bind("spring.http.serviceclient", Bindable.mapOf(String.class, ServiceClient.class))
			.ifBound((groups) -> groups.forEach((group, settings) -> {
				if (settings != null && StringUtils.hasText(settings.baseUrl())) {
					urls.put(group, settings.baseUrl().trim());
				}
			}));
		// Several interfaces of one name: the first declared shows the client's primary URL.
		declared.contexts().forEach((context) -> {
			String url = of(context.contextId(), context.className(), environment, classLoader);
			if (url != null) {
				urls.putIfAbsent(context.name(), url);
			}
		});
		return urls;
	}

	static String of(String contextId, String className, Environment environment, ClassLoader classLoader) {
		if (className == null || !ClassUtils.isPresent(className, classLoader)) {
			return null;
		}
		FeignClient client = AnnotatedElementUtils
			.findMergedAnnotation(ClassUtils.resolveClassName(className, classLoader), FeignClient.class);
		if (client == null) {
			return null;
		}
		String url = resolve(environment, client.url());
		if (!StringUtils.hasText(url)) {
			url = environment.getProperty("spring.cloud.openfeign.client.config." + contextId + ".url", "").trim();
		}
		if (!StringUtils.hasText(url)) {
			String service = StringUtils.hasText(client.name()) ? client.name() : client.value();
			url = "http://" + resolve(environment, StringUtils.hasText(service) ? service : contextId);
		}
		else if (!url.contains("://")) {
			url = "http://" + url;
		}
		String path = resolve(environment, client.path());
		if (StringUtils.hasText(path)) {
			path = (path.startsWith("/") ? "" : "/") + path;
			url = url + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
		}
		return url;
	}

	private static String resolve(Environment environment, String value) {
		return StringUtils.hasText(value) ? environment.resolvePlaceholders(value).trim() : "";
	}

	/**
	 * The part of Spring Boot 4's {@code spring.http.serviceclient.<group>} settings the endpoint shows.
	 *
	 * @param baseUrl the group's base URL
	 */
	record ServiceClient(String baseUrl) {
	}

}
