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

/**
 * An inventory item. A value served from the cache instead of the upstream says so: {@code degraded} is true
 * and {@code degradedReason} tells what actually happened.
 *
 * @param id the item id
 * @param stock units in stock
 * @param degraded whether this is a cached value served because the upstream failed; absent from the upstream's
 * JSON, hence a {@code Boolean} (Jackson 3, Boot 4's default, refuses a missing primitive), never {@code null}
 * once built
 * @param degradedReason what the upstream did, {@code null} for a live value
 */
public record Item(String id, int stock, Boolean degraded, String degradedReason) {

	/**
	 * An item; a missing {@code degraded} is a live value.
	 */
	public Item {
		degraded = Boolean.TRUE.equals(degraded);
	}

	/**
	 * Return this item marked as served from the cache.
	 * @param reason what actually happened
	 * @return the degraded copy
	 */
	public Item degraded(String reason) {
		return new Item(this.id, this.stock, true, reason);
	}

}
