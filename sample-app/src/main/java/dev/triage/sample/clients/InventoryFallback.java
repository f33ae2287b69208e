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
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;

/**
 * Serves the last known item, marked degraded with what actually happened, when the upstream failed or the
 * breaker is open. A 4xx is our own mistake and is rethrown; calls with no cached answer rethrow too, so a
 * placeholder is never passed off as data.
 */
public class InventoryFallback implements TriageFallback<InventoryClient> {

	private final ItemCache cache;

	public InventoryFallback(ItemCache cache) {
		this.cache = cache;
	}

	@Override
	public InventoryClient create(Throwable exception, OriginalResponse response) {
		RuntimeException original = (response != null) ? new UpstreamResponseException(response)
				: (RuntimeException) exception;
		if (response != null && response.status() >= 400 && response.status() < 500) {
			throw original;
		}
		String reason = (response != null) ? "upstream answered " + response.status()
				: ((UpstreamException) exception).getClass().getSimpleName();
		return new InventoryClient() {

			@Override
			public Item item(String id) {
				return InventoryFallback.this.cache.get(id).map((item) -> item.degraded(reason)).orElseThrow(() -> original);
			}

			@Override
			public String slow() {
				throw original;
			}

			@Override
			public String hang() {
				throw original;
			}

			@Override
			public String reset() {
				throw original;
			}

		};
	}

}
