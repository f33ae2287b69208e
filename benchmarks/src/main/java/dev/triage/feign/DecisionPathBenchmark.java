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

package dev.triage.feign;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.triage.bench.Fixtures;
import dev.triage.engine.Call;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.ManagedClient;
import feign.Client;
import feign.Request;
import feign.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What Triage does around one attempt, outside Feign: the call context, the client wrapper (admission, breaker,
 * overload checks, classification, rule, meters and call log through the observers) and, for a failure, the
 * error decoder's decision. Each is measured next to the in-memory client alone, answering the same way, so the
 * difference is Triage's part. In Triage's package to drive the wrapper and the call context the way Feign's
 * method handler does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class DecisionPathBenchmark {

	private static final String METHOD_KEY = "Api#item()";

	private static final Request REQUEST = Request.create(Request.HttpMethod.GET, "http://in.memory/items/42",
			Map.of(), null, StandardCharsets.UTF_8, null);

	private final Request.Options options = new Request.Options();

	private Client ok;

	private Client failing;

	private ClientRuntime okRuntime;

	private ClientRuntime failingRuntime;

	private TriageClient triageOk;

	private TriageClient triageFailing;

	private TriageErrorDecoder decoder;

	private ManagedClient okClient;

	private ManagedClient failingClient;

	@Setup
	public void setUp() {
		this.ok = Fixtures.answering(200, "\"ok\"".getBytes(StandardCharsets.UTF_8));
		this.failing = Fixtures.answering(503, Fixtures.JSON_404);
		this.okRuntime = Fixtures.runtime(Fixtures.neverOpening());
		this.failingRuntime = Fixtures.runtime(Fixtures.neverOpening());
		this.okClient = new ManagedClient(this.okRuntime);
		this.failingClient = new ManagedClient(this.failingRuntime);
		this.triageOk = new TriageClient(this.ok, this.okClient);
		this.triageFailing = new TriageClient(this.failing, this.failingClient);
		this.decoder = new TriageErrorDecoder(this.failingClient);
	}

	/**
	 * The in-memory client alone answering 200, body read to the end: the baseline of {@link #success2xx()}.
	 */
	@Benchmark
	public int success2xxClientAlone() throws IOException {
		return readAll(this.ok.execute(REQUEST, this.options));
	}

	/**
	 * A 2xx attempt managed by Triage, body read to the end (the breaker and observers hear of it then).
	 */
	@Benchmark
	public int success2xx() throws IOException {
		Call call = Call.open(this.okClient, METHOD_KEY);
		try {
			return readAll(this.triageOk.execute(REQUEST, this.options));
		}
		finally {
			call.close();
		}
	}

	/**
	 * The in-memory client alone answering 503: the baseline of {@link #failed503()}.
	 */
	@Benchmark
	public Response failed503ClientAlone() throws IOException {
		return this.failing.execute(REQUEST, this.options);
	}

	/**
	 * One failed 503 attempt (the last one its rule allows): classify, rule, OriginalResponse, exception (with
	 * its stack trace), breaker, meters, the decoder's decision.
	 */
	@Benchmark
	public Exception failed503() throws IOException {
		Call call = Call.open(this.failingClient, METHOD_KEY);
		try {
			return this.decoder.decode(METHOD_KEY, this.triageFailing.execute(REQUEST, this.options));
		}
		finally {
			call.close();
		}
	}

	private static int readAll(Response response) throws IOException {
		try (InputStream in = response.body().asInputStream()) {
			int total = 0;
			for (int read = in.read(); read != -1; read = in.read()) {
				total++;
			}
			return total;
		}
	}

}
