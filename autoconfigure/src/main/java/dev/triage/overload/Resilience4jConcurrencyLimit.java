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

	private final Bulkhead bulkhead;

	/**
	 * Create an instance.
	 * @param bulkhead the bulkhead of one client
	 */
	public Resilience4jConcurrencyLimit(Bulkhead bulkhead) {
		this.bulkhead = bulkhead;
	}

	@Override
	public boolean acquire() {
		return this.bulkhead.tryAcquirePermission();
	}

	@Override
	public void release() {
		this.bulkhead.onComplete();
	}

	@Override
	public String name() {
		return this.bulkhead.getName();
	}

	/**
	 * Return the Resilience4j bulkhead underneath.
	 * @return the bulkhead in use
	 */
	public Bulkhead bulkhead() {
		return this.bulkhead;
	}

	/**
	 * Follow the settings of a registry Resilience4j built anew (on a refresh): this bulkhead takes them, keeps
	 * the permits it gave and goes back into the registry.
	 * @param registry the new registry
	 */
	void registryRebuilt(BulkheadRegistry registry) {
		Bulkhead fresh = registry.bulkhead(this.bulkhead.getName());
		if (fresh != this.bulkhead) {
			this.bulkhead.changeConfig(fresh.getBulkheadConfig());
			registry.replace(this.bulkhead.getName(), this.bulkhead);
		}
	}

}
