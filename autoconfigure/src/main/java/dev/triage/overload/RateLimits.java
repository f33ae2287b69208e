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

import java.util.List;

/**
 * Finds the static rate limit of a client: Resilience4j's limiter of the same name when the application
 * configured one, else {@link RateLimit#NONE}.
 */
@FunctionalInterface
public interface RateLimits {

	/** No client has a limit. */
	RateLimits NONE = (client) -> RateLimit.NONE;

	/**
	 * Return the limit of a client.
	 * @param client the Feign client name
	 * @return its limit, {@link RateLimit#NONE} when none is configured
	 */
	RateLimit forClient(String client);

	/**
	 * Combine several sources of limits: an attempt goes only with a permit from each limit its client has.
	 * @param all the sources, in order
	 * @return the combined source
	 */
	static RateLimits all(List<RateLimits> all) {
		if (all.isEmpty()) {
			return NONE;
		}
		if (all.size() == 1) {
			return all.get(0);
		}
		return (client) -> {
			List<RateLimit> limits = all.stream()
				.map((source) -> source.forClient(client))
				.filter((limit) -> limit != RateLimit.NONE)
				.toList();
			return switch (limits.size()) {
				case 0 -> RateLimit.NONE;
				case 1 -> limits.get(0);
				default -> new Both(limits);
			};
		};
	}

	/**
	 * Several limits of one client: a permit of each, in order; a refusal stops at the first limit that
	 * refuses.
	 */
	record Both(List<RateLimit> limits) implements RateLimit {

		@Override
		public boolean acquire() {
			for (RateLimit limit : this.limits) {
				if (!limit.acquire()) {
					return false;
				}
			}
			return true;
		}

		@Override
		public boolean acquire(long maxWaitNanos) {
			long start = System.nanoTime();
			for (RateLimit limit : this.limits) {
				if (!limit.acquire(maxWaitNanos - (System.nanoTime() - start))) {
					return false;
				}
			}
			return true;
		}

		@Override
		public String name() {
			return this.limits.get(0).name();
		}

		@Override
		public int availablePermissions() {
			return this.limits.stream().mapToInt(RateLimit::availablePermissions).min().orElse(-1);
		}

	}

}
