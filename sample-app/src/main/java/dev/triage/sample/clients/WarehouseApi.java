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

package dev.triage.sample.clients;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

/**
 * The same upstream, behind the same gateway, as a Spring HTTP service client ({@code @HttpExchange} on a
 * {@code RestClient}) instead of a Feign client: Triage manages it as client {@code warehouse} with the same
 * policy table (see {@code DemoConfiguration#warehouseApi}).
 */
@HttpExchange
public interface WarehouseApi {

	@GetExchange("/items/{id}")
	Item item(@PathVariable("id") String id);

	@GetExchange("/flap/{key}")
	String flap(@PathVariable("key") String key);

	@GetExchange("/status/{code}")
	String status(@PathVariable("code") int code);

	@GetExchange("/reset")
	String reset();

}
