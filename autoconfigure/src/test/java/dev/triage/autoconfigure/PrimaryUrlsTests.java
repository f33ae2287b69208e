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

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.mock.env.MockEnvironment;

/**
 * The primary channel's base URL shown by the endpoint is the one Spring Cloud OpenFeign targets.
 */
class PrimaryUrlsTests {

	private final MockEnvironment environment = new MockEnvironment().withProperty("orders.url",
			"http://orders.internal:8080");

	@Test
	void annotationUrlWithPlaceholderAndPath() {
		assertThat(url("orders", WithUrl.class)).isEqualTo("http://orders.internal:8080/api/v1");
	}

	@Test
	void clientConfigUrlWhenTheAnnotationHasNone() {
		this.environment.setProperty("spring.cloud.openfeign.client.config.stock.url", "https://stock.internal");

		assertThat(url("stock", WithoutUrl.class)).isEqualTo("https://stock.internal");
	}

	@Test
	void loadBalancedServiceNameWhenNoUrlIsConfigured() {
		assertThat(url("stock", WithoutUrl.class)).isEqualTo("http://stock");
	}

	@Test
	void schemeAddedToAUrlWithoutOne() {
		assertThat(url("bare", Bare.class)).isEqualTo("http://bare.internal:9000");
	}

	@Test
	void anHttpServiceGroupsBaseUrlIsItsPrimary() {
		this.environment.setProperty("spring.http.serviceclient.catalog.base-url", "http://catalog.internal/api");
		this.environment.setProperty("spring.http.serviceclient.catalog.read-timeout", "2s");

		assertThat(PrimaryUrls.of(declared(new DeclaredClients.Context("orders", "orders", WithUrl.class.getName())),
				this.environment, getClass().getClassLoader()))
			.containsEntry("catalog", "http://catalog.internal/api")
			.containsEntry("orders", "http://orders.internal:8080/api/v1");
	}

	@Test
	void interfacesSharingANameShowTheFirstDeclaredOnesUrlReadByItsContextId() {
		this.environment.setProperty("spring.cloud.openfeign.client.config.stockAdmin.url", "https://admin.internal");
		this.environment.setProperty("spring.cloud.openfeign.client.config.stock.url", "https://wrong.internal");

		assertThat(PrimaryUrls.of(
				declared(new DeclaredClients.Context("stockAdmin", "stock", WithoutUrl.class.getName()),
						new DeclaredClients.Context("stockReads", "stock", Bare.class.getName())),
				this.environment, getClass().getClassLoader()))
			.containsOnlyKeys("stock")
			.containsEntry("stock", "https://admin.internal");
	}

	private static DeclaredClients declared(DeclaredClients.Context... contexts) {
		return new DeclaredClients(java.util.List.of(contexts), null);
	}

	private String url(String name, Class<?> type) {
		return PrimaryUrls.of(name, type.getName(), this.environment, getClass().getClassLoader());
	}

	@FeignClient(name = "orders", url = "${orders.url}", path = "/api/v1/")
	interface WithUrl {

	}

	@FeignClient(name = "stock")
	interface WithoutUrl {

	}

	@FeignClient(name = "bare", url = "bare.internal:9000")
	interface Bare {

	}

}
