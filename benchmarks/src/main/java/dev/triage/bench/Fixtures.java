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
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import dev.triage.CallObserver;
import dev.triage.OriginalResponse;
import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.breaker.UpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.engine.CallLog;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.ManagedClient;
import dev.triage.engine.CompositeCallObserver;
import dev.triage.feign.TriageCapability;
import dev.triage.feign.TriageErrorDecoder;
import dev.triage.feign.TriageRetryer;
import dev.triage.metrics.TriageMetrics;
import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.Overload;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RetryBudget;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.ErrorTypeExtractor;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.RetryPlanner;
import dev.triage.policy.RuleField;
import dev.triage.policy.RuleOverride;
import feign.Client;
import feign.Feign;
import feign.Request;
import feign.RequestLine;
import feign.Response;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The in-memory set-up shared by the benchmarks: a Feign client on an in-memory {@link Client} that answers with
 * a fixed status and body, once plain, once managed by Triage the way the auto-configuration wires it
 * (capability, error decoder, retryer, meters on a registry, the call log).
 */
public final class Fixtures {

	public static final byte[] JSON_404 = "{\"error\":{\"type\":\"not_found\",\"message\":\"no such item\"}}"
		.getBytes(StandardCharsets.UTF_8);

	private Fixtures() {
	}

	/**
	 * The API the benchmarks call.
	 */
	interface Api {

		@RequestLine("GET /items/42")
		String item();

	}


	public static Client answering(int status, byte[] body) {
		Map<String, Collection<String>> headers = Map.of("Content-Type", List.of("application/json"));
		return (request, options) -> Response.builder()
			.status(status)
			.reason("bench")
			.headers(headers)
			.body(body)
			.request(request)
			.build();
	}

	static Api plain(Client client) {
		return Feign.builder().client(client).target(Api.class, "http://in.memory");
	}

	static Api triage(Client client, ClientRuntime runtime) {
		return triage(client, runtime, "http://in.memory");
	}

	/**
	 * A Feign client managed by Triage the way the auto-configuration wires it.
	 */
	static Api triage(Client client, ClientRuntime runtime, String url) {
		ManagedClient managed = new ManagedClient(runtime);
		return Feign.builder()
			.client(client)
			.addCapability(new TriageCapability(managed, (type) -> null))
			.errorDecoder(new TriageErrorDecoder(managed))
			.retryer(new TriageRetryer(managed))
			.target(Api.class, url);
	}

	/**
	 * A client runtime with the defaults, except: one attempt for a 503 (so one failed attempt is measured),
	 * a breaker that never opens unless told to, and throttling off (a 100% failure loop would otherwise be
	 * throttled, which is another benchmark).
	 */
	public static ClientRuntime runtime(CircuitBreaker circuitBreaker) {
		return runtime(circuitBreaker, PolicyTable.builder()
			.client(PolicyKey.status(503), RuleOverride.builder().set(RuleField.MAX_ATTEMPTS, 1).build())
			.build());
	}

	/**
	 * A client runtime with a given table, a breaker, and throttling off.
	 */
	static ClientRuntime runtime(CircuitBreaker circuitBreaker, PolicyTable table) {
		return runtime(circuitBreaker, table, RetryBudget.Settings.DEFAULTS);
	}

	/**
	 * A client runtime with a given table, a breaker, a retry budget, and throttling off.
	 */
	static ClientRuntime runtime(CircuitBreaker circuitBreaker, PolicyTable table, RetryBudget.Settings budget) {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		TriageMetrics metrics = new TriageMetrics();
		metrics.bindTo(registry);
		CallObserver observer = new CompositeCallObserver(List.of(new CallLog(), metrics));
		Clock clock = Clock.systemUTC();
		Overload overload = Overload.of(budget,
				new AdaptiveThrottle.Settings(false, 2, Duration.ofMinutes(2), 20, 0.9), RateLimit.NONE, clock);
		UpstreamBreaker breaker = new Resilience4jUpstreamBreaker(circuitBreaker);
		return new ClientRuntime("bench", table, new RetryPlanner(() -> ThreadLocalRandom.current().nextDouble()),
				new ErrorTypeExtractor(List.of("/error/type", "/type", "/error/code", "/code"), "bench"), 64 * 1024,
				Set.of("authorization", "cookie", "set-cookie"), null, null, breaker, observer, clock, overload,
				new Channels(List.of(new Channel(OriginalResponse.PRIMARY, null, breaker, overload.pause()))),
				new PoisonTracker(PoisonTracker.Settings.DEFAULTS, System::nanoTime, (event) -> {
				}));
	}

	/**
	 * A breaker that records every call but never opens: a time-based window's minimum number of calls is not
	 * capped by its size (a count-based one's is).
	 */
	public static CircuitBreaker neverOpening() {
		return CircuitBreaker.of("bench", neverOpeningConfig());
	}

	static CircuitBreakerConfig neverOpeningConfig() {
		return CircuitBreakerConfig.custom()
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
			.slidingWindowSize(10)
			.minimumNumberOfCalls(Integer.MAX_VALUE)
			.build();
	}

	static Request.Options options() {
		return new Request.Options();
	}

}
