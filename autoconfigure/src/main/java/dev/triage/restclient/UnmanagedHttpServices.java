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

import java.util.function.Consumer;

import dev.triage.TriageHttpServices;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * {@link TriageHttpServices} while Triage is switched off ({@code triage.enabled=false}): an application that builds
 * its clients through it still starts, and its clients are plain, as a client switched off on its own is.
 */
public final class UnmanagedHttpServices implements TriageHttpServices {

	@Override
	public <S> S createClient(String client, Class<S> serviceType, RestClient restClient) {
		return proxy(serviceType, restClient);
	}

	/**
	 * Spring's own {@code @HttpExchange} proxy of a service interface over a {@code RestClient}.
	 */
	static <S> S proxy(Class<S> serviceType, RestClient restClient) {
		return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(restClient)).build().createClient(serviceType);
	}

	@Override
	public Consumer<RestClient.Builder> forClient(String client) {
		return (builder) -> {
		};
	}

}
