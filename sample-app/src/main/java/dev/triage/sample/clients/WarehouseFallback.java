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

import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;

/**
 * The warehouse's fallback: when Triage refuses a call (the breaker is open, nothing was sent) it answers from
 * the item cache, marked degraded; every failure that reached the upstream goes to the caller as Triage's typed
 * exception, so the tour shows the 404 and the 599 as they are.
 */
public class WarehouseFallback implements TriageFallback<WarehouseApi> {

	private final ItemCache cache;

	public WarehouseFallback(ItemCache cache) {
		this.cache = cache;
	}

	@Override
	public WarehouseApi create(Throwable exception, OriginalResponse response) {
		if (response != null) {
			throw new UpstreamResponseException(response);
		}
		RuntimeException original = (RuntimeException) exception;
		if (!(exception instanceof UpstreamUnavailableException refused)) {
			throw original;
		}
		String reason = "refused " + refused.refusal();
		return new WarehouseApi() {

			@Override
			public Item item(String id) {
				return WarehouseFallback.this.cache.get(id).map((item) -> item.degraded(reason)).orElseThrow(() -> original);
			}

			@Override
			public String flap(String key) {
				throw original;
			}

			@Override
			public String status(int code) {
				throw original;
			}

			@Override
			public String reset() {
				throw original;
			}

		};
	}

}
