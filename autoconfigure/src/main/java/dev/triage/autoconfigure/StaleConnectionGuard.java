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

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.util.TimeValue;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.openfeign.support.FeignHttpClientProperties;

/**
 * Makes Spring Cloud OpenFeign's pooled HC5 connections safe to reuse after a quiet spell: a connection idle for
 * longer than {@code triage.connection-pool.validate-after-inactivity} is checked before a request is written
 * on it, so a keep-alive connection the server closed meanwhile is replaced instead of failing a healthy call
 * (a POST that could not be retried, a failure charged to the breaker). The connection's time-to-live stays the
 * one Spring Cloud OpenFeign configured.
 */
final class StaleConnectionGuard implements BeanPostProcessor {

	private final Duration validateAfterInactivity;

	private final ObjectProvider<FeignHttpClientProperties> feignProperties;

	StaleConnectionGuard(Duration validateAfterInactivity, ObjectProvider<FeignHttpClientProperties> feignProperties) {
		this.validateAfterInactivity = validateAfterInactivity;
		this.feignProperties = feignProperties;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof PoolingHttpClientConnectionManager manager && "hc5ConnectionManager".equals(beanName)) {
			ConnectionConfig.Builder config = ConnectionConfig.custom()
				.setValidateAfterInactivity(TimeValue.ofMilliseconds(this.validateAfterInactivity.toMillis()));
			FeignHttpClientProperties properties = this.feignProperties.getIfAvailable();
			if (properties != null) {
				config.setTimeToLive(TimeValue.of(properties.getTimeToLive(), properties.getTimeToLiveUnit()));
			}
			manager.setDefaultConnectionConfig(config.build());
		}
		return bean;
	}

}
