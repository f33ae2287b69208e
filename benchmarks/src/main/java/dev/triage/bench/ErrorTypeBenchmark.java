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

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.policy.ErrorTypeExtractor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The error type of a 64 KiB JSON error body whose type comes first: Triage's streaming extraction against
 * reading a Jackson tree of the whole body (what Triage did before).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ErrorTypeBenchmark {

	private static final ObjectMapper MAPPER = new ObjectMapper();

	private final ErrorTypeExtractor extractor = new ErrorTypeExtractor(
			List.of("/error/type", "/type", "/error/code", "/code"), "bench");

	private byte[] body;

	@Setup
	public void setUp() {
		String json = "{\"error\":{\"type\":\"overloaded_error\",\"message\":\"" + "x".repeat(64 * 1024 - 60) + "\"}}";
		this.body = json.getBytes(StandardCharsets.UTF_8);
	}

	@Benchmark
	public String streaming64k() {
		return this.extractor.extract(this.body);
	}

	@Benchmark
	public String jacksonTree64k() throws Exception {
		JsonNode node = MAPPER.readTree(this.body).at("/error/type");
		return node.textValue();
	}

}
