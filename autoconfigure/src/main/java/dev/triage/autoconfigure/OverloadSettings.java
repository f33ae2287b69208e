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

package dev.triage.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.RetryBudget;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.InvalidPolicyException;

/**
 * Resolves a client's retry budget, throttle and poison settings field by field (client, then global, then the
 * defaults) and fails startup naming the property of a bad value.
 */
final class OverloadSettings {

	private OverloadSettings() {
	}

	static RetryBudget.Settings budget(TriageProperties properties, String clientName) {
		Layers<TriageProperties.RetryBudget> layers = Layers.of(properties, clientName, "retry-budget",
				TriageProperties::getRetryBudget, TriageProperties.Client::getRetryBudget);
		String prefix = layers.prefix();
		RetryBudget.Settings defaults = RetryBudget.Settings.DEFAULTS;
		double ratio = layers.pick(TriageProperties.RetryBudget::getRatio, defaults.ratio());
		double reserve = layers.pick(TriageProperties.RetryBudget::getMinRetriesPerSecond, defaults.minRetriesPerSecond());
		Duration window = layers.pick(TriageProperties.RetryBudget::getWindow, defaults.window());
		check(ratio >= 0 && ratio <= 100, prefix + ".ratio", ratio, "a number of 0 or more, e.g. 0.2 (20% of first attempts)");
		check(reserve >= 0, prefix + ".min-retries-per-second", reserve, "a number of 0 or more, e.g. 10");
		check(window.toMillis() >= 1000, prefix + ".window", window, "a duration of at least 1s, e.g. 10s");
		return new RetryBudget.Settings(layers.pick(TriageProperties.RetryBudget::getEnabled, defaults.enabled()), ratio,
				reserve, window);
	}

	static AdaptiveThrottle.Settings throttle(TriageProperties properties, String clientName) {
		Layers<TriageProperties.Throttle> layers = Layers.of(properties, clientName, "throttle",
				TriageProperties::getThrottle, TriageProperties.Client::getThrottle);
		String prefix = layers.prefix();
		AdaptiveThrottle.Settings defaults = AdaptiveThrottle.Settings.DEFAULTS;
		double k = layers.pick(TriageProperties.Throttle::getK, defaults.k());
		Duration window = layers.pick(TriageProperties.Throttle::getWindow, defaults.window());
		long minRequests = layers.pick(TriageProperties.Throttle::getMinRequests, defaults.minRequests());
		double maxDrop = layers.pick(TriageProperties.Throttle::getMaxDropProbability, defaults.maxDropProbability());
		check(k >= 1, prefix + ".k", k, "a number of at least 1, e.g. 2 (1 refuses as soon as any attempt is rejected)");
		check(window.toMillis() >= 1000, prefix + ".window", window, "a duration of at least 1s, e.g. 2m");
		check(minRequests >= 0, prefix + ".min-requests", minRequests, "a whole number of 0 or more, e.g. 20");
		check(maxDrop >= 0 && maxDrop < 1, prefix + ".max-drop-probability", maxDrop,
				"a number from 0 to below 1, e.g. 0.9 (some traffic must reach the upstream to see it recover)");
		return new AdaptiveThrottle.Settings(layers.pick(TriageProperties.Throttle::getEnabled, defaults.enabled()), k,
				window, minRequests, maxDrop);
	}

	static PoisonTracker.Settings poison(TriageProperties properties, String clientName) {
		Layers<TriageProperties.Poison> layers = Layers.of(properties, clientName, "poison",
				TriageProperties::getPoison, TriageProperties.Client::getPoison);
		String prefix = layers.prefix();
		PoisonTracker.Settings defaults = PoisonTracker.Settings.DEFAULTS;
		List<Integer> statuses = layers.pick(TriageProperties.Poison::getStatuses, List.copyOf(defaults.statuses()));
		int threshold = layers.pick(TriageProperties.Poison::getThreshold, defaults.threshold());
		Duration ttl = layers.pick(TriageProperties.Poison::getTtl, defaults.ttl());
		long maxTracked = layers.pick(TriageProperties.Poison::getMaxTracked, defaults.maxTracked());
		Duration healthyWithin = layers.pick(TriageProperties.Poison::getHealthyWithin, defaults.healthyWithin());
		for (int i = 0; i < statuses.size(); i++) {
			Integer status = statuses.get(i);
			check(status != null && status >= 100 && status <= 999, prefix + ".statuses[" + i + "]", status,
					"an HTTP status from 100 to 999, e.g. 500");
		}
		check(threshold >= 2, prefix + ".threshold", threshold, "a whole number of at least 2, e.g. 3");
		check(ttl.toMillis() >= 1, prefix + ".ttl", ttl, "a positive duration, e.g. 10m");
		check(maxTracked >= 1, prefix + ".max-tracked", maxTracked, "a whole number of at least 1, e.g. 10000");
		check(healthyWithin.toMillis() >= 1, prefix + ".healthy-within", healthyWithin,
				"a positive duration, e.g. 1m");
		return new PoisonTracker.Settings(layers.pick(TriageProperties.Poison::getEnabled, defaults.enabled()),
				Set.copyOf(statuses), threshold, ttl, maxTracked, healthyWithin);
	}

	private static void check(boolean valid, String property, Object value, String allowed) {
		if (!valid) {
			throw new InvalidPolicyException(property, value, allowed);
		}
	}

	/**
	 * A client's settings over the global ones: the first layer that sets a field wins.
	 *
	 * @param client the client's settings, {@code null} when the client has none
	 * @param global the global settings
	 * @param prefix the property prefix bad values are reported under
	 */
	private record Layers<T>(T client, T global, String prefix) {

		static <T> Layers<T> of(TriageProperties properties, String clientName, String key,
				Function<TriageProperties, T> global, Function<TriageProperties.Client, T> own) {
			TriageProperties.Client client = (clientName != null) ? properties.getClients().get(clientName) : null;
			T clientSettings = (client != null) ? own.apply(client) : null;
			String prefix = (clientSettings != null) ? "triage.clients." + clientName + "." + key : "triage." + key;
			return new Layers<>(clientSettings, global.apply(properties), prefix);
		}

		<V> V pick(Function<T, V> field, V fallback) {
			V value = (this.client != null) ? field.apply(this.client) : null;
			if (value == null) {
				value = field.apply(this.global);
			}
			return (value != null) ? value : fallback;
		}

	}

}
