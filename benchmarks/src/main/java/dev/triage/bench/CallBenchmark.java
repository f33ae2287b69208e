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

import java.util.concurrent.TimeUnit;

import dev.triage.UpstreamException;
import feign.FeignException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Whole calls in memory, plain Feign against Triage-managed Feign on the same in-memory client: a 200 (String
 * decode), a 404 with a JSON error body, one failed 503 attempt, and a refusal by an open breaker (against
 * Resilience4j alone refusing).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class CallBenchmark {

	private Fixtures.Api plain200;

	private Fixtures.Api triage200;

	private Fixtures.Api plain404;

	private Fixtures.Api triage404;

	private Fixtures.Api triage503;

	private Fixtures.Api triageOpen;

	private CircuitBreaker open;

	@Setup
	public void setUp() {
		byte[] ok = "\"ok\"".getBytes();
		this.plain200 = Fixtures.plain(Fixtures.answering(200, ok));
		this.triage200 = Fixtures.triage(Fixtures.answering(200, ok), Fixtures.runtime(Fixtures.neverOpening()));
		this.plain404 = Fixtures.plain(Fixtures.answering(404, Fixtures.JSON_404));
		this.triage404 = Fixtures.triage(Fixtures.answering(404, Fixtures.JSON_404),
				Fixtures.runtime(Fixtures.neverOpening()));
		this.triage503 = Fixtures.triage(Fixtures.answering(503, Fixtures.JSON_404),
				Fixtures.runtime(Fixtures.neverOpening()));
		CircuitBreaker forcedOpen = Fixtures.neverOpening();
		forcedOpen.transitionToForcedOpenState();
		this.triageOpen = Fixtures.triage(Fixtures.answering(200, ok), Fixtures.runtime(forcedOpen));
		this.open = Fixtures.neverOpening();
		this.open.transitionToForcedOpenState();
	}

	@Benchmark
	public String ok200Plain() {
		return this.plain200.item();
	}

	@Benchmark
	public String ok200Triage() {
		return this.triage200.item();
	}

	@Benchmark
	public Object notFound404Plain() {
		try {
			return this.plain404.item();
		}
		catch (FeignException ex) {
			return ex;
		}
	}

	@Benchmark
	public Object notFound404Triage() {
		try {
			return this.triage404.item();
		}
		catch (UpstreamException ex) {
			return ex;
		}
	}

	@Benchmark
	public Object failed503Triage() {
		try {
			return this.triage503.item();
		}
		catch (UpstreamException ex) {
			return ex;
		}
	}

	@Benchmark
	public Object openBreakerTriage() {
		try {
			return this.triageOpen.item();
		}
		catch (UpstreamException ex) {
			return ex;
		}
	}

	/**
	 * The same refusal, sampled call by call for its percentiles.
	 */
	@Benchmark
	@BenchmarkMode(Mode.SampleTime)
	public Object openBreakerTriageSampled() {
		return openBreakerTriage();
	}

	@Benchmark
	public Object openBreakerResilience4jAlone() {
		try {
			this.open.acquirePermission();
			return null;
		}
		catch (CallNotPermittedException ex) {
			return ex;
		}
	}

}
