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

package dev.triage.support;

import feign.Response;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.DeleteExchange;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;
import org.springframework.web.service.annotation.PutExchange;

/**
 * The test upstream's inventory API: a Feign client, and the same interface as an HTTP service client (its
 * {@code @HttpExchange} annotations), so the contract tests run over both kinds of client.
 */
@FeignClient(name = "inventory", url = "${test.upstream.inventory}")
public interface InventoryClient {

	@GetMapping("/items/{id}")
	@GetExchange("/items/{id}")
	String item(@PathVariable("id") String id);

	@GetMapping("/raw/{id}")
	Response raw(@PathVariable("id") String id);

	@GetMapping("/search")
	@GetExchange("/search")
	String search(@RequestParam("q") String query, @RequestHeader("Authorization") String authorization);

	@GetMapping("/profile")
	@GetExchange("/profile")
	String profile(@RequestHeader("Authorization") String authorization, @RequestHeader("Cookie") String cookie);

	@PostMapping("/orders")
	@PostExchange("/orders")
	String order(@RequestBody String body);

	@PostMapping("/orders")
	@PostExchange("/orders")
	String order(@RequestBody String body, @RequestHeader("Idempotency-Key") String idempotencyKey);

	@PutMapping("/orders/{id}")
	@PutExchange("/orders/{id}")
	String replace(@PathVariable("id") String id, @RequestBody String body);

	@DeleteMapping("/orders/{id}")
	@DeleteExchange("/orders/{id}")
	String cancel(@PathVariable("id") String id);

}
