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

/**
 * The fleet scene's provider with an account-wide quota: {@code triage.clients.fleet-quota.fleet-rate-limit} in
 * {@code fleet-instance.yml}, one bucket in Redis for the three instances.
 */
@FeignClient(name = "fleet-quota", url = "${demo.fleet.upstream-url}")
public interface FleetQuotaClient {

	@GetMapping("/ok")
	String send();

}
