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

package dev.triage.engine;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.triage.CallObserver;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channels;
import dev.triage.overload.Overload;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.ErrorTypeExtractor;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RetryPlanner;

/**
 * Everything the engine and the adapters of one managed client needs, resolved once at startup.
 *
 * @param name the Feign client name
 * @param policy the resolved policy table
 * @param planner the retry planner
 * @param errorTypes the error-type extractor
 * @param maxBodyBytes the cap on buffered error bodies
 * @param sensitiveHeaders lower-case names of headers whose values are redacted
 * @param deadline the total time budget of one call, {@code null} for none
 * @param poolTimeout the configured wait for a pooled connection, {@code null} when unknown
 * @param breaker the upstream's breaker
 * @param observer told about attempts, retries and finished calls
 * @param clock the clock for {@code Retry-After} dates
 * @param overload the retry budget, pause, throttle and rate limit of the upstream
 * @param channels the channels, {@code primary} (with {@code breaker} and the overload's pause) first
 * @param poison the poison-request tracker
 * @param unknownStatusesSeen statuses already logged as first sightings
 */
public record ClientRuntime(String name, PolicyTable policy, RetryPlanner planner, ErrorTypeExtractor errorTypes,
		int maxBodyBytes, Set<String> sensitiveHeaders, Duration deadline, Duration poolTimeout,
		UpstreamBreaker breaker, CallObserver observer, Clock clock, Overload overload,
		Channels channels, PoisonTracker poison, Set<Integer> unknownStatusesSeen) {

	/**
	 * Create a runtime with an empty first-sighting set.
	 */
	public ClientRuntime(String name, PolicyTable policy, RetryPlanner planner, ErrorTypeExtractor errorTypes,
			int maxBodyBytes, Set<String> sensitiveHeaders, Duration deadline, Duration poolTimeout,
			UpstreamBreaker breaker, CallObserver observer, Clock clock, Overload overload, Channels channels,
			PoisonTracker poison) {
		this(name, policy, planner, errorTypes, maxBodyBytes, sensitiveHeaders, deadline, poolTimeout, breaker,
				observer, clock, overload, channels, poison, ConcurrentHashMap.newKeySet());
	}

	/**
	 * Return whether this is the first time the status was seen as an unknown status.
	 * @param status the status
	 * @return whether it is new
	 */
	public boolean firstSighting(int status) {
		return this.unknownStatusesSeen.add(status);
	}

}
