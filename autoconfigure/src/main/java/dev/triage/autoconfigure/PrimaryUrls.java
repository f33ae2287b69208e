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

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.triage.policy.ShownValues;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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

	private static final Log logger = LogFactory.getLog(PrimaryUrls.class);

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

	/**
	 * Warn once per Feign client whose URL carries user info ({@code http://user:password@host}): Apache HttpClient
	 * 5 refuses to send such a request (every call fails before the wire, "Request URI authority contains
	 * deprecated userinfo component"), and Feign's other clients send it without those credentials. Said at
	 * startup, the URL shown without its user info; Triage does not refuse it (the URL is Spring Cloud OpenFeign's
	 * setting, not Triage's).
	 * @param contexts the managed Feign clients' contexts
	 * @param environment the environment
	 * @param classLoader the application's class loader
	 */
	static void warnOnUserInfo(Collection<DeclaredClients.Context> contexts, Environment environment,
			ClassLoader classLoader) {
		contexts.forEach((context) -> {
			String url = of(context.contextId(), context.className(), environment, classLoader);
			if (url != null && hasUserInfo(url)) {
				logger.warn("Feign client '" + context.name() + "' (" + context.className() + ") has a URL with user "
						+ "info, " + ShownValues.of(url) + ": Apache HttpClient 5 refuses to send such a request "
						+ "(every call fails before reaching the wire) and Feign's other clients send it without "
						+ "those credentials. Send credentials in a header instead, e.g. with a RequestInterceptor "
						+ "such as feign.auth.BasicAuthRequestInterceptor");
			}
		});
	}

	private static boolean hasUserInfo(String url) {
		int scheme = url.indexOf("://");
		int start = (scheme >= 0) ? scheme + 3 : 0;
		int end = start;
		while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
			end++;
		}
		return url.substring(start, end).contains("@");
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
