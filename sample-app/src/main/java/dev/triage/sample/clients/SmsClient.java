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

/**
 * An SMS provider with a backup provider configured as a channel
 * ({@code triage.clients.sms.channels.backup}): seed 001's "切换解决故障".
 */
@FeignClient(name = "sms", url = "${demo.upstream-url}")
public interface SmsClient {

	@PostMapping("/sms/send")
	String send(@RequestBody String message, @RequestHeader("Idempotency-Key") String idempotencyKey);

}
