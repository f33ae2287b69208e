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

package dev.triage.sample.fleet;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The fleet scene's SMS provider, as each instance of the fleet calls it: a {@code 429 + Retry-After} one
 * instance gets pauses all of them.
 */
@FeignClient(name = "fleet-sms", url = "${demo.fleet.upstream-url}")
public interface FleetSmsClient {

	@GetMapping("/status/{status}")
	String status(@PathVariable("status") int status, @RequestParam("retryAfter") int retryAfter,
			@RequestParam("type") String type);

	@GetMapping("/ok")
	String send();

}
