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

package dev.triage.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.channel.Channel;
import dev.triage.engine.ClientRuntime;
import dev.triage.engine.ManagedClients;
import dev.triage.fleet.FleetStatus;
import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.Overload;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RetryBudget;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.ExplainedRule;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.Rule;
import dev.triage.policy.RuleField;
import dev.triage.policy.RuleOverride;
import dev.triage.policy.ShownValues;
import dev.triage.reload.ConfigHistory;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/triage}: the Feign clients Triage manages; {@code /actuator/triage/{client}}: one client's
 * effective policy table (each field with its source), breaker state and recent failures. Never a header or
 * body value, user info or query; base URLs only as scheme, host, port and path. Durations are written the way
 * they are configured ({@code 10s}, {@code 500ms}, {@code 2m}).
 */
@Endpoint(id = "triage")
public class TriageEndpoint {

	private final ManagedClients clients;

	private final RecentFailures failures;

	private final Map<String, String> primaryUrls;

	private final FleetStatus fleet;

	private final ConfigHistory config;

	/**
	 * Create the endpoint without the primaries' base URLs.
	 * @param clients the managed clients
	 * @param failures the recent failures
	 */
	public TriageEndpoint(ManagedClients clients, RecentFailures failures) {
		this(clients, failures, Map.of());
	}

	/**
	 * Create the endpoint.
	 * @param clients the managed clients
	 * @param failures the recent failures
	 * @param primaryUrls per client name, the base URL of its primary channel (sanitized here before shown)
	 */
	public TriageEndpoint(ManagedClients clients, RecentFailures failures, Map<String, String> primaryUrls) {
		this(clients, failures, primaryUrls, FleetStatus.LOCAL);
	}

	/**
	 * Create the endpoint.
	 * @param clients the managed clients
	 * @param failures the recent failures
	 * @param primaryUrls per client name, the base URL of its primary channel (sanitized here before shown)
	 * @param fleet where the fleet's shared state is kept
	 */
	public TriageEndpoint(ManagedClients clients, RecentFailures failures, Map<String, String> primaryUrls,
			FleetStatus fleet) {
		this(clients, failures, primaryUrls, fleet, new ConfigHistory(Clock.systemUTC()));
	}

	/**
	 * Create the endpoint.
	 * @param clients the managed clients
	 * @param failures the recent failures
	 * @param primaryUrls per client name, the base URL of its primary channel (sanitized here before shown)
	 * @param fleet where the fleet's shared state is kept
	 * @param config the settings' version history
	 */
	public TriageEndpoint(ManagedClients clients, RecentFailures failures, Map<String, String> primaryUrls,
			FleetStatus fleet, ConfigHistory config) {
		this.clients = clients;
		this.failures = failures;
		this.primaryUrls = Map.copyOf(primaryUrls);
		this.fleet = fleet;
		this.config = config;
	}

	/**
	 * List the managed clients.
	 * @return each client's breaker state and number of recent failures
	 */
	@ReadOperation
	public ClientsDescriptor clients() {
		Map<String, ClientSummary> summaries = new LinkedHashMap<>();
		this.clients.all()
			.forEach((name, runtime) -> summaries.put(name,
					new ClientSummary(runtime.breaker().state(), this.failures.of(name).size(),
							this.clients.hasFallback(name))));
		return new ClientsDescriptor(summaries, this.clients.notManaged(),
				new FleetDescriptor(this.fleet.store(), this.fleet.connected()), ConfigDescriptor.of(this.config.status()));
	}

	/**
	 * Describe one client.
	 * @param client the Feign client name
	 * @return the description, or {@code null} (404) for an unknown client
	 */
	@ReadOperation
	public ClientDescriptor client(@Selector String client) {
		ClientRuntime runtime = this.clients.find(client);
		if (runtime == null) {
			return null;
		}
		PolicyTable table = runtime.policy();
		Map<String, Map<String, Field>> policies = new LinkedHashMap<>();
		for (PolicyKey key : table.keys()) {
			ExplainedRule explained = table.explain(key);
			policies.put(key.toString(), fields(values(explained.rule()), explained.sources()));
		}
		Map<String, Map<String, Field>> errorTypes = new LinkedHashMap<>();
		table.explainErrorTypes()
			.forEach((type, explained) -> errorTypes.put(type,
					fields(values(explained.override()), explained.sources())));
		return new ClientDescriptor(client, breaker(runtime), (runtime.deadline() != null) ? text(runtime.deadline()) : null,
				this.clients.hasFallback(client), overload(runtime.overload()), channels(runtime,
						this.primaryUrls.getOrDefault(client, this.clients.learnedBaseUrl(client))),
				runtime.poison().current(), policies, errorTypes, this.failures.of(client));
	}

	private static List<ChannelDescriptor> channels(ClientRuntime runtime, String primaryUrl) {
		List<ChannelDescriptor> channels = new ArrayList<>();
		for (Channel channel : runtime.channels().all()) {
			Instant until = channel.pause().until();
			String breakerName = (channel.breaker() instanceof Resilience4jUpstreamBreaker r4j)
					? r4j.circuitBreaker().getName() : runtime.name();
			String baseUrl = (channel.baseUrl() != null) ? channel.baseUrl() : primaryUrl;
			channels.add(new ChannelDescriptor(channel.name(), sanitizeBaseUrl(baseUrl), breakerName,
					channel.breaker().state(), (until != null) ? until.toString() : null));
		}
		return channels;
	}

	private static OverloadDescriptor overload(Overload overload) {
		RetryBudget budget = overload.budget();
		RetryBudget.Settings budgetSettings = budget.settings();
		AdaptiveThrottle throttle = overload.throttle();
		AdaptiveThrottle.Settings throttleSettings = throttle.settings();
		Instant pausedUntil = overload.pause().until();
		RateLimit limit = overload.rateLimit();
		return new OverloadDescriptor(
				new BudgetDescriptor(budgetSettings.enabled(), budgetSettings.ratio(),
						budgetSettings.minRetriesPerSecond(), text(budgetSettings.window()), budget.firstAttempts(),
						budget.retries(), budget.retriesLeft()),
				new ThrottleDescriptor(throttleSettings.enabled(), throttleSettings.k(), text(throttleSettings.window()),
						throttleSettings.minRequests(), throttleSettings.maxDropProbability(), throttle.requests(),
						throttle.accepts(), throttle.dropProbability()),
				new PauseDescriptor(pausedUntil != null, (pausedUntil != null) ? pausedUntil.toString() : null),
				(limit.name() != null) ? new RateLimiterDescriptor(limit.name(), limit.availablePermissions()) : null);
	}

	private static BreakerDescriptor breaker(ClientRuntime runtime) {
		if (runtime.breaker() instanceof Resilience4jUpstreamBreaker r4j) {
			CircuitBreaker.Metrics metrics = r4j.circuitBreaker().getMetrics();
			return new BreakerDescriptor(r4j.circuitBreaker().getName(), runtime.breaker().state(),
					metrics.getFailureRate(), metrics.getNumberOfBufferedCalls(), metrics.getNumberOfFailedCalls(),
					metrics.getNumberOfSuccessfulCalls(), metrics.getNumberOfNotPermittedCalls());
		}
		return new BreakerDescriptor(runtime.name(), runtime.breaker().state(), -1, 0, 0, 0, 0);
	}

	private static Map<String, Field> fields(Map<String, Object> values, Map<String, String> sources) {
		Map<String, Field> fields = new LinkedHashMap<>();
		values.forEach((name, value) -> {
			String source = sources.get(name);
			if (source != null) {
				fields.put(name, new Field(value, source));
			}
		});
		return fields;
	}

	private static Map<String, Object> values(Rule rule) {
		Map<String, Object> values = new LinkedHashMap<>();
		for (RuleField field : RuleField.values()) {
			values.put(field.property(), display(field, field.get(rule)));
		}
		return values;
	}

	private static Map<String, Object> values(RuleOverride override) {
		Map<String, Object> values = new LinkedHashMap<>();
		override.values().forEach((field, value) -> values.put(field.property(), display(field, value)));
		return values;
	}

	private static Object display(RuleField field, Object value) {
		return (value instanceof Duration duration) ? text(duration) : field.display(value);
	}

	/**
	 * Write a duration as the startup failures do ({@link ShownValues#duration}): {@code 10s}, {@code 500ms}.
	 * @param duration the duration
	 * @return the text
	 */
	static String text(Duration duration) {
		return ShownValues.duration(duration);
	}

	/**
	 * Reduce a base URL to scheme, host, port and path: user info, query, fragment and path parameters can carry
	 * credentials and are never shown.
	 * @param url the base URL, may be {@code null}
	 * @return the sanitized URL, {@code null} for {@code null}
	 */
	static String sanitizeBaseUrl(String url) {
		if (url == null) {
			return null;
		}
		String result = url.trim();
		int cut = indexOfAny(result, 0, '?', '#');
		if (cut >= 0) {
			result = result.substring(0, cut);
		}
		int scheme = result.indexOf("://");
		int hostStart = (scheme >= 0) ? scheme + 3 : 0;
		int pathStart = result.indexOf('/', hostStart);
		int authorityEnd = (pathStart >= 0) ? pathStart : result.length();
		int at = result.lastIndexOf('@', authorityEnd - 1);
		if (at >= hostStart) {
			result = result.substring(0, hostStart) + result.substring(at + 1);
			pathStart = result.indexOf('/', hostStart);
		}
		if (pathStart >= 0) {
			result = result.substring(0, pathStart) + result.substring(pathStart).replaceAll(";[^/]*", "");
		}
		return result;
	}

	private static int indexOfAny(String text, int from, char... chars) {
		for (int i = from; i < text.length(); i++) {
			for (char c : chars) {
				if (text.charAt(i) == c) {
					return i;
				}
			}
		}
		return -1;
	}

	/**
	 * The managed clients.
	 *
	 * @param clients per client name, a summary
	 * @param notManaged the HTTP service groups of the application Triage leaves alone, with the reason
	 * @param fleet what the instances of the fleet share
	 * @param config the version of the settings in force, when it was applied and the last change refused
	 */
	public record ClientsDescriptor(Map<String, ClientSummary> clients, Map<String, String> notManaged,
			FleetDescriptor fleet, ConfigDescriptor config) implements OperationResponseBody {
	}

	/**
	 * The settings in force (SPEC §12).
	 *
	 * @param version 1 at startup, one more per change applied while running
	 * @param appliedAt when the version was put in force
	 * @param lastRejected the last change refused (when, why), shown as {@code null} when none was
	 */
	public record ConfigDescriptor(long version, Instant appliedAt,
			@JsonInclude(JsonInclude.Include.ALWAYS) ConfigHistory.Rejection lastRejected) {

		static ConfigDescriptor of(ConfigHistory.Status status) {
			return new ConfigDescriptor(status.version(), status.appliedAt(), status.lastRejected());
		}

	}

	/**
	 * Where the fleet's shared state is kept (SPEC §13).
	 *
	 * @param store {@code local} or {@code redis}
	 * @param connected whether this instance reaches Redis now (always false for {@code local})
	 */
	public record FleetDescriptor(String store, boolean connected) {
	}

	/**
	 * One client in the list.
	 *
	 * @param breaker the breaker state, Resilience4j's name
	 * @param recentFailures how many recent failures are kept
	 * @param fallback whether a fallback is declared
	 */
	public record ClientSummary(String breaker, int recentFailures, boolean fallback) {
	}

	/**
	 * One client in detail.
	 *
	 * @param name the client name
	 * @param breaker the breaker
	 * @param deadline the call deadline, {@code null} for none
	 * @param fallback whether a fallback is declared
	 * @param overload the retry budget, throttle, pause and rate limiter
	 * @param channels the channels, {@code primary} first
	 * @param poisonRequests the requests that are poison now (sanitized URL, fingerprint, since)
	 * @param policies per key, each field's value and source
	 * @param errorTypes per configured error type, each set field's value and source
	 * @param recentFailures the most recent failures, newest first
	 */
	public record ClientDescriptor(String name, BreakerDescriptor breaker,
			@JsonInclude(JsonInclude.Include.ALWAYS) String deadline, boolean fallback,
			OverloadDescriptor overload, List<ChannelDescriptor> channels,
			List<PoisonTracker.PoisonEntry> poisonRequests, Map<String, Map<String, Field>> policies, Map<String, Map<String, Field>> errorTypes,
			List<RecentFailures.Failure> recentFailures) implements OperationResponseBody {
	}

	/**
	 * A resolved field.
	 *
	 * @param value the value
	 * @param source {@code default}, {@code global} or {@code client}
	 */
	public record Field(Object value, String source) {
	}

	/**
	 * The client's breaker.
	 *
	 * @param name the Resilience4j breaker name
	 * @param state the state, e.g. {@code CLOSED}
	 * @param failureRate the failure rate in percent, -1 while below the minimum number of calls
	 * @param bufferedCalls calls in the window
	 * @param failedCalls failed calls in the window
	 * @param successfulCalls successful calls in the window
	 * @param notPermittedCalls calls refused while open
	 */
	public record BreakerDescriptor(String name, String state, float failureRate, int bufferedCalls, int failedCalls,
			int successfulCalls, long notPermittedCalls) {
	}

	/**
	 * The client's overload protection.
	 *
	 * @param retryBudget the retry budget
	 * @param throttle adaptive throttling
	 * @param pause the pause a {@code Retry-After} asked for
	 * @param rateLimiter the Resilience4j rate limiter, {@code null} when none is configured
	 */
	public record OverloadDescriptor(BudgetDescriptor retryBudget, ThrottleDescriptor throttle, PauseDescriptor pause,
			@JsonInclude(JsonInclude.Include.ALWAYS) RateLimiterDescriptor rateLimiter) {
	}

	/**
	 * The retry budget: its settings and the window now.
	 *
	 * @param enabled whether retries are budgeted
	 * @param ratio retries per first attempt
	 * @param minRetriesPerSecond the reserve per second
	 * @param window the window
	 * @param firstAttempts first attempts in the window
	 * @param retries retries in the window
	 * @param retriesLeft retries the window still allows
	 */
	public record BudgetDescriptor(boolean enabled, double ratio, double minRetriesPerSecond, String window,
			long firstAttempts, long retries, long retriesLeft) {
	}

	/**
	 * Adaptive throttling: its settings and the window now.
	 *
	 * @param enabled whether the client throttles itself
	 * @param k the accepts multiplier
	 * @param window the window
	 * @param minRequests requests needed before anything is refused
	 * @param maxDropProbability the highest refusal probability
	 * @param requests requests in the window
	 * @param accepts accepts in the window
	 * @param dropProbability the refusal probability now
	 */
	public record ThrottleDescriptor(boolean enabled, double k, String window, long minRequests,
			double maxDropProbability, long requests, long accepts, double dropProbability) {
	}

	/**
	 * The upstream's pause.
	 *
	 * @param paused whether it is paused now
	 * @param until until when, ISO-8601, {@code null} when not paused
	 */
	public record PauseDescriptor(boolean paused, @JsonInclude(JsonInclude.Include.ALWAYS) String until) {
	}

	/**
	 * The Resilience4j rate limiter of the client.
	 *
	 * @param name the limiter's name
	 * @param availablePermissions permits left in the current period
	 */
	public record RateLimiterDescriptor(String name, int availablePermissions) {
	}

	/**
	 * One channel of the client.
	 *
	 * @param name {@code primary} or the configured name
	 * @param baseUrl the channel's base URL, scheme, host, port and path only (for the primary, the client's own URL;
	 * {@code null} when it is not known)
	 * @param breaker the name of its Resilience4j breaker
	 * @param breakerState the breaker's state
	 * @param pausedUntil until when a {@code Retry-After} pauses it, {@code null} when it is not paused
	 */
	public record ChannelDescriptor(String name, @JsonInclude(JsonInclude.Include.ALWAYS) String baseUrl, String breaker,
			String breakerState, @JsonInclude(JsonInclude.Include.ALWAYS) String pausedUntil) {
	}

}
