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

package dev.triage.feign;

import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With the defaults, POST, PUT and DELETE reach the wire once whatever went wrong.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=100000" })
class WritesNotRetriedByDefaultTests extends WriteRetries {

	@Override
	int expectedAttempts(String method, int rowAttempts) {
		return 1;
	}

}
