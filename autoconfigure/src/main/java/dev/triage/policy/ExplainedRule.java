package dev.triage.policy;

import java.util.Map;

/**
 * A resolved rule with the layer each of its fields came from.
 *
 * @param rule the resolved rule
 * @param sources field property name (e.g. {@code backoff.initial}) to {@code default}, {@code global} or
 * {@code client}
 */
public record ExplainedRule(Rule rule, Map<String, String> sources) {
}
