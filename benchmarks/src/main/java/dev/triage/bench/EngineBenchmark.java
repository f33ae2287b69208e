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

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.triage.CallOutcome;
import dev.triage.UpstreamResponseException;
import dev.triage.engine.Attempt;
import dev.triage.engine.BodyCapture;
import dev.triage.engine.Call;
import dev.triage.engine.CapturedBody;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.Engine;
import dev.triage.engine.RefusedException;
import dev.triage.overload.RetryBudget;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RetryDecision;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The engine alone, in memory, driven the way its adapters drive it (the RestClient interceptor's steps, without
 * an HTTP client): nothing here is sent, so all of each figure is Triage's own work. A 2xx: open the call, admit
 * the attempt (every protection's "before"), arm its bound, settle it as a success (every protection's "after":
 * breaker, overload, poison, meters), report the call, close it. A failed 503 attempt that is retried: the same
 * admission, the error body captured and its error type read, the answer classified and recorded, the retry
 * decided (backoff, breaker, budget); the call goes on, so nothing is reported.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class EngineBenchmark {

	private static final String METHOD_KEY = "Api#item()";

	private static final String URL = "http://in.memory/items/42";

	private static final Map<String, List<String>> HEADERS = Map.of("Content-Type", List.of("application/json"));

	private Engine ok;

	private ClientRuntime okRuntime;

	private Engine failing;

	private ClientRuntime failingRuntime;

	@Setup
	public void setUp() {
		this.okRuntime = Fixtures.runtime(Fixtures.neverOpening());
		this.ok = new Engine(this.okRuntime);
		// The default table (a 503 is retried), the budget off: every attempt measured is one that is retried.
		this.failingRuntime = Fixtures.runtime(Fixtures.neverOpening(), PolicyTable.defaults(),
				new RetryBudget.Settings(false, 0.2, 10, Duration.ofSeconds(10)));
		this.failing = new Engine(this.failingRuntime);
	}

	/**
	 * A 2xx call of one attempt through the engine.
	 */
	@Benchmark
	public Call engine2xx() throws RefusedException {
		Call call = Call.open(this.ok, METHOD_KEY);
		try {
			Attempt attempt = this.ok.begin(call, "GET", URL, null, null);
			this.ok.bound(call, -1, -1, true);
			this.ok.succeeded(attempt, 200, true).completed();
			this.ok.report(call, CallOutcome.SUCCESS, null, null, false);
			return call;
		}
		finally {
			call.close();
		}
	}

	/**
	 * One failed 503 attempt that the table retries, as the RestClient interceptor handles it (the body captured,
	 * the answer built as the exception the call would end with, the retry decided; no wait).
	 */
	@Benchmark
	public RetryDecision engine503Retried() throws RefusedException {
		Call call = Call.open(this.failing, METHOD_KEY);
		try {
			Attempt attempt = this.failing.begin(call, "GET", URL, null, null);
			this.failing.bound(call, -1, -1, true);
			CapturedBody captured = BodyCapture.capture(new ByteArrayInputStream(Fixtures.JSON_404),
					Fixtures.JSON_404.length, this.failingRuntime, 503);
			Engine.Answer answer = this.failing.responded(attempt, 503, "Service Unavailable", HEADERS, captured);
			UpstreamResponseException failure = answer.exception();
			call.failed(failure, answer.rule());
			RetryDecision decision = this.failing.decide(call, answer.rule(), call.tries(), true,
					failure.response().retryAfter(), Duration.ofNanos(call.elapsedNanos()));
			if (!decision.retry()) {
				throw new IllegalStateException("the 503 should have been retried: " + decision);
			}
			return decision;
		}
		finally {
			call.close();
		}
	}

}
