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

import dev.triage.engine.AttemptAbort;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The attempt's hard bound as every call pays it: a new call's bound set, armed with what to shut down, and
 * disarmed when the call ends (a 10 s bound that never fires), on one thread and on two at once.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class AttemptAbortBenchmark {

	private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final Object exchange = new Object();

	/**
	 * One call's bound: set, armed, disarmed.
	 */
	@Benchmark
	public AttemptAbort armAndDisarm() {
		AttemptAbort abort = new AttemptAbort();
		abort.bound(System.nanoTime() + BOUND_NANOS, 10_000);
		abort.arm(this.exchange, AttemptAbortBenchmark::shutdown);
		abort.cancel();
		return abort;
	}

	/**
	 * The same, two threads at once.
	 */
	@Benchmark
	@Threads(2)
	public AttemptAbort armAndDisarmTwoThreads() {
		return armAndDisarm();
	}

	private static void shutdown(Object exchange) {
		throw new IllegalStateException("a 10 s bound fired");
	}

}
