package dev.triage.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.triage.breaker.Resilience4jUpstreamBreaker;
import dev.triage.feign.ClientRuntime;
import dev.triage.feign.ManagedClients;
import dev.triage.policy.Backoff;
import dev.triage.policy.ExplainedRule;
import dev.triage.policy.PolicyKey;
import dev.triage.policy.PolicyTable;
import dev.triage.policy.Rule;
import dev.triage.policy.RuleOverride;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/triage}: the Feign clients Triage manages; {@code /actuator/triage/{client}}: one client's
 * effective policy table (each field with its source), breaker state and recent failures. Never a header,
 * body, URL or query value.
 */
@Endpoint(id = "triage")
public class TriageEndpoint {

	private final ManagedClients clients;

	private final RecentFailures failures;

	/**
	 * Create the endpoint.
	 * @param clients the managed clients
	 * @param failures the recent failures
	 */
	public TriageEndpoint(ManagedClients clients, RecentFailures failures) {
		this.clients = clients;
		this.failures = failures;
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
							runtime.fallback() != null)));
		return new ClientsDescriptor(summaries);
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
				runtime.fallback() != null, policies, errorTypes, this.failures.of(client));
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
		Backoff backoff = rule.backoff();
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("max-attempts", rule.maxAttempts());
		values.put("backoff.initial", text(backoff.initial()));
		values.put("backoff.multiplier", backoff.multiplier());
		values.put("backoff.max", text(backoff.max()));
		values.put("backoff.jitter", backoff.jitter());
		values.put("retry-after", text(rule.retryAfter()));
		values.put("retry-after-max", (rule.retryAfterMax() != null) ? text(rule.retryAfterMax()) : "none");
		values.put("idempotent-only", rule.idempotentOnly());
		values.put("breaker", text(rule.breaker()));
		values.put("alert", rule.alert());
		values.put("fallback", rule.fallback());
		return values;
	}

	private static Map<String, Object> values(RuleOverride override) {
		Map<String, Object> values = new LinkedHashMap<>();
		Object[] raw = { override.maxAttempts(), override.backoffInitial(), override.backoffMultiplier(),
				override.backoffMax(), override.backoffJitter(), override.retryAfter(), override.retryAfterMax(),
				override.idempotentOnly(), override.breaker(), override.alert(), override.fallback() };
		for (int i = 0; i < raw.length; i++) {
			if (raw[i] != null) {
				values.put(RuleOverride.FIELDS.get(i), (raw[i] instanceof Duration d) ? text(d)
						: (raw[i] instanceof Enum<?> e) ? text(e) : raw[i]);
			}
		}
		return values;
	}

	private static String text(Duration duration) {
		return duration.toMillis() + "ms";
	}

	private static String text(Enum<?> value) {
		return value.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The managed clients.
	 *
	 * @param clients per client name, a summary
	 */
	public record ClientsDescriptor(Map<String, ClientSummary> clients) implements OperationResponseBody {
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
	 * @param policies per key, each field's value and source
	 * @param errorTypes per configured error type, each set field's value and source
	 * @param recentFailures the most recent failures, newest first
	 */
	public record ClientDescriptor(String name, BreakerDescriptor breaker, String deadline, boolean fallback,
			Map<String, Map<String, Field>> policies, Map<String, Map<String, Field>> errorTypes,
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

}
