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

package dev.triage.bench;

import java.time.Clock;
import java.util.concurrent.TimeUnit;

import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.Overload;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RetryBudget;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the overload checks add to a successful attempt (pause, throttle admission and accept, budget deposit, no
 * rate limiter), next to what the breaker alone costs (Resilience4j's permission and success record).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class OverloadBenchmark {

	private Overload overload;

	private CircuitBreaker breaker;

	@Setup
	public void setUp() {
		this.overload = Overload.of(RetryBudget.Settings.DEFAULTS, AdaptiveThrottle.Settings.DEFAULTS, RateLimit.NONE,
				Clock.systemUTC());
		this.breaker = Fixtures.neverOpening();
	}

	@Benchmark
	public boolean overloadChecks() {
		boolean admitted = !this.overload.pause().isPaused() && this.overload.throttle().admit()
				&& this.overload.rateLimit().acquire();
		this.overload.budget().onFirstAttempt();
		this.overload.throttle().onAnswered(true);
		return admitted;
	}

	@Benchmark
	public boolean breakerPermissionAndSuccess() {
		boolean permitted = this.breaker.tryAcquirePermission();
		this.breaker.onSuccess(1_000, TimeUnit.NANOSECONDS);
		return permitted;
	}

}
