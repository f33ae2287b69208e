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
package dev.triage.overload;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;

/**
 * A {@link ConcurrencyLimit} backed by a Resilience4j {@link Bulkhead} from the application's registry, so that
 * {@code resilience4j.bulkhead.instances.<client>} configures it (its {@code max-concurrent-calls} and
 * {@code max-wait-duration}) and Resilience4j's endpoints and meters show it.
 */
public final class Resilience4jConcurrencyLimit implements ConcurrencyLimit {

	private final String name;

	/** {@code null} while its settings are removed: no bulkhead, no check. */
	private volatile Bulkhead bulkhead;

	/**
	 * Create an instance.
	 * @param bulkhead the bulkhead of one client
	 */
	public Resilience4jConcurrencyLimit(Bulkhead bulkhead) {
		this.name = bulkhead.getName();
		this.bulkhead = bulkhead;
	}

	@Override
	public boolean acquire() {
		Bulkhead bulkhead = this.bulkhead;
		return bulkhead == null || bulkhead.tryAcquirePermission();
	}

	@Override
	public void release() {
		Bulkhead bulkhead = this.bulkhead;
		if (bulkhead != null) {
			bulkhead.onComplete();
		}
	}

	@Override
	public String name() {
		return (this.bulkhead != null) ? this.name : null;
	}

	/**
	 * Return the Resilience4j bulkhead underneath.
	 * @return the bulkhead in use, {@code null} while its settings are removed
	 */
	public Bulkhead bulkhead() {
		return this.bulkhead;
	}

	/**
	 * Follow the settings of a registry Resilience4j built anew (on a refresh): this bulkhead takes them, keeps
	 * the permits it gave and goes back into the registry. Its settings removed, the client has no bulkhead
	 * (Resilience4j's defaults, 25 concurrent calls, are not one), until they come back.
	 * @param registry the new registry
	 * @param configured whether the bulkhead's settings are still there
	 */
	void registryRebuilt(BulkheadRegistry registry, boolean configured) {
		Bulkhead live = this.bulkhead;
		if (!configured) {
			this.bulkhead = null;
			return;
		}
		Bulkhead fresh = registry.bulkhead(this.name);
		if (live == null) {
			this.bulkhead = fresh;
		}
		else if (fresh != live) {
			live.changeConfig(fresh.getBulkheadConfig());
			registry.replace(this.name, live);
		}
	}

}
