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

import feign.Retryer;
import feign.codec.ErrorDecoder;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "custom", url = "${test.upstream.inventory}", configuration = CustomDecoderClient.OwnBeans.class)
public interface CustomDecoderClient {

	@GetMapping("/custom")
	String get();

	/** The user's own decoder and retryer for this client only. */
	class OwnBeans {

		@Bean
		ErrorDecoder ownErrorDecoder() {
			return (methodKey, response) -> new IllegalStateException("own decoder: " + response.status());
		}

		@Bean
		Retryer ownRetryer() {
			return Retryer.NEVER_RETRY;
		}

	}

}
