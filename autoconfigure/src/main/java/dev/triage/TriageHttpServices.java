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
package dev.triage;

import java.util.function.Consumer;

import org.springframework.web.client.RestClient;

/**
 * Puts Spring's HTTP service clients ({@code @HttpExchange} interfaces on {@code RestClient}) and plain
 * {@code RestClient}s under a Triage client's policy table: the same retries, breakers, fallbacks, overload
 * protection, channels, poison detection, meters and endpoint as a Feign client of that name. Auto-configured as a
 * bean.
 */
public interface TriageHttpServices {

	/**
	 * Create an {@code @HttpExchange} proxy of a service interface over a {@code RestClient}, managed as a client.
	 * A {@link TriageFallback TriageFallback&lt;S&gt;} bean answers its failed calls.
	 * @param client the client's name ({@code triage.clients.<client>.*} tunes it)
	 * @param serviceType the {@code @HttpExchange} interface
	 * @param restClient the RestClient the proxy uses; its base URL is the {@code primary} channel
	 * @param <S> the service interface
	 * @return the proxy
	 * @throws IllegalStateException when the RestClient's request factory is on an Apache HttpClient 5 that retries
	 * on its own (build it with {@code disableAutomaticRetries()})
	 */
	<S> S createClient(String client, Class<S> serviceType, RestClient restClient);

	/**
	 * Return what puts a {@code RestClient} under a client's table:
	 * {@code RestClient.builder().apply(triage.forClient("x"))}. Calls made on it directly have no fallback
	 * (there is no interface to answer for): they throw Triage's typed exceptions.
	 * @param client the client's name
	 * @return the builder customization; applied to a builder whose request factory is on an Apache HttpClient 5
	 * that retries on its own, it throws {@link IllegalStateException}
	 */
	Consumer<RestClient.Builder> forClient(String client);

}
