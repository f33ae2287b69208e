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
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * An LLM-API-style upstream: the same status carries different error types, decided by the body's
 * {@code error.type}. Requests carry an {@code Idempotency-Key}, so a POST may be retried.
 */
@FeignClient(name = "llm", url = "${demo.upstream-url}/llm")
public interface LlmClient {

	@PostMapping("/v1/messages")
	String complete(@RequestParam("scenario") String scenario, @RequestBody String prompt,
			@RequestHeader("Idempotency-Key") String idempotencyKey);

}
