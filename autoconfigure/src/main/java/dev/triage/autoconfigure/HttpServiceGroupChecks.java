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

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;

import dev.triage.restclient.HttpServiceGroups;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * What must not run around a managed HTTP service group, refused at startup as for Feign (SPEC §11): Spring Cloud's
 * circuit breaker for HTTP service groups (one breaker per group counting every exception, 400s included) and
 * Spring Framework 7's {@code @Retryable} on a managed interface or method (its retries would multiply Triage's).
 */
final class HttpServiceGroupChecks implements HttpServiceGroups.GroupCheck {

	static final String SPRING_CLOUD_BREAKER = "spring.cloud.circuitbreaker.http-services.enabled";

	private static final String CIRCUIT_BREAKER_FACTORY = "org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory";

	private static final String RETRYABLE = "org.springframework.resilience.annotation.Retryable";

	private static final String RETRY_POST_PROCESSOR = "org.springframework.resilience.annotation.RetryAnnotationBeanPostProcessor";

	private final ListableBeanFactory beanFactory;

	private final Environment environment;

	HttpServiceGroupChecks(ListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public void check(String group, Iterable<Class<?>> serviceTypes) {
		if (present(CIRCUIT_BREAKER_FACTORY)
				&& this.environment.getProperty(SPRING_CLOUD_BREAKER, Boolean.class, true)
				&& this.beanFactory.getBeanNamesForType(type(CIRCUIT_BREAKER_FACTORY), true, false).length > 0) {
			throw new ConflictingSettingException("HTTP service group '" + group + "'", SPRING_CLOUD_BREAKER, true,
					"Spring Cloud would wrap HTTP service group '" + group + "' in a second circuit breaker that counts "
							+ "every exception (a 400 included) and answers with its own fallbacks",
					"Set 'spring.cloud.circuitbreaker.http-services.enabled=false': Triage gives the group one "
							+ "Resilience4j breaker named '" + group + "' (configure it under "
							+ "resilience4j.circuitbreaker.instances." + group + ") and TriageFallback beans answer "
							+ "for its interfaces. Or set triage.clients." + group + ".enabled=false to leave the group "
							+ "to Spring Cloud.");
		}
		if (!present(RETRYABLE) || !present(RETRY_POST_PROCESSOR)
				|| this.beanFactory.getBeanNamesForType(type(RETRY_POST_PROCESSOR), true, false).length == 0) {
			return;
		}
		for (Class<?> serviceType : serviceTypes) {
			if (retryable(serviceType)) {
				throw retryable(group, serviceType.getName());
			}
			for (Method method : serviceType.getMethods()) {
				if (retryable(method)) {
					throw retryable(group, serviceType.getSimpleName() + "#" + method.getName());
				}
			}
		}
	}

	private static ConflictingSettingException retryable(String group, String where) {
		return new ConflictingSettingException("HTTP service group '" + group + "'", "@Retryable on " + where, true,
				"Spring would retry every call of " + where + " of HTTP service group '" + group + "' on top of "
						+ "Triage's retries, multiplying the requests that reach the wire",
				"Remove @Retryable from " + where + ": triage.clients." + group + ".policies sets the retries per "
						+ "status, with Retry-After, budgets and breakers. Or set triage.clients." + group
						+ ".enabled=false to keep Spring's retries for this group.");
	}

	private static boolean retryable(AnnotatedElement element) {
		return HttpServiceGroups.annotated(element, RETRYABLE);
	}

	private boolean present(String className) {
		return ClassUtils.isPresent(className, getClass().getClassLoader());
	}

	private Class<?> type(String className) {
		return ClassUtils.resolveClassName(className, getClass().getClassLoader());
	}

}
