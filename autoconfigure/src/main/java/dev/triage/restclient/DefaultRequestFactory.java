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

package dev.triage.restclient;

import dev.triage.engine.AttemptAbortInterceptor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;

/**
 * A {@code RestClient.Builder} given no request factory ({@code RestClient.builder()}, {@code RestClient.create()})
 * gets Spring's default when it is built: with the Apache HttpClient 5 the starter brings, a client that retries
 * on its own (I/O errors, a 429 or 503 with {@code Retry-After}, each attempt sent twice behind the table's back:
 * SPEC §11, "the request factory's own retries are off"). Put under a client's table, such a builder gets that
 * default without the retries and with the attempt's hard bound. A builder that has a request factory (Spring
 * Boot's, or the application's own) keeps it: its retries are its owner's choice.
 * <p>
 * Spring's builder does not say whether it has a request factory; its field is read ({@link BuilderFields}). When it cannot be read, the builder is left as it is and a warning says so once.
 */
final class DefaultRequestFactory {

	private static final Log logger = LogFactory.getLog(DefaultRequestFactory.class);

	/** Spring's own test for its default: Apache HttpClient 5 first. */
	private static final boolean HTTP_CLIENT_5 = ClassUtils.isPresent("org.apache.hc.client5.http.classic.HttpClient",
			DefaultRequestFactory.class.getClassLoader());

	private static volatile boolean warned;

	private DefaultRequestFactory() {
	}

	/**
	 * Give a builder without a request factory Spring's default on Apache HttpClient 5, without its retries.
	 * @param builder the builder
	 */
	static void replaceHiddenRetries(RestClient.Builder builder) {
		if (!HTTP_CLIENT_5 || !BuilderFields.readable(builder)) {
			return;
		}
		Object factory;
		try {
			factory = BuilderFields.read(builder, "requestFactory");
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			if (!warned) {
				warned = true;
				logger.warn("Triage cannot tell whether a RestClient.Builder has a request factory (" + ex
						+ "): one left to Spring's default keeps Apache HttpClient 5's own retries; give it a request "
						+ "factory built on AttemptAbortInterceptor.addTo(HttpClients.custom().disableAutomaticRetries())");
			}
			return;
		}
		if (factory == null) {
			builder.requestFactory(HttpClient5.withoutRetries());
		}
	}

	/**
	 * Loaded only when Apache HttpClient 5 is on the classpath.
	 */
	private static final class HttpClient5 {

		/**
		 * Spring's default ({@code HttpClients.createSystem()}) without its retries, with the attempt's hard bound.
		 */
		static ClientHttpRequestFactory withoutRetries() {
			return new HttpComponentsClientHttpRequestFactory(
					AttemptAbortInterceptor.addTo(HttpClients.custom().useSystemProperties().disableAutomaticRetries())
						.build());
		}

	}

}
