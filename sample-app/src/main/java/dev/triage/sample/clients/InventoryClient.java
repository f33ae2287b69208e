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

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * An inventory service behind the gateway (which answers 599 when the backend does not answer in time).
 */
@FeignClient(name = "inventory", url = "${demo.gateway-url}")
public interface InventoryClient {

	@GetMapping("/items/{id}")
	Item item(@PathVariable("id") String id);

	@GetMapping("/slow")
	String slow();

	@GetMapping("/hang")
	String hang();

	@GetMapping("/reset")
	String reset();

}
