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

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.triage.engine.ManagedClients;
import dev.triage.reload.ConfigHistory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;

/**
 * Puts changed settings in force while the application runs (SPEC §12). Binds {@code triage.*} afresh from the
 * {@code Environment} (never from the properties bean, which Spring Cloud rebinds in place), validates it as at
 * startup, builds every client's runtime with the state of the one in force carried over, and swaps them all in;
 * an invalid change is refused whole with one ERROR line in the words of the startup failure.
 */
final class SettingsReload {

	private static final Log logger = LogFactory.getLog(SettingsReload.class);

	private final ManagedClients clients;

	private final DeclaredClients declared;

	private final Environment environment;

	private final ConfigHistory history;

	private final List<FailureAnalyzer> analyzers;

	private ManagedClientsFactory factory;

	/** Every {@code triage.*} value as the Environment had it when last looked at. */
	private Map<String, String> seen;

	/**
	 * Every {@code triage.*} value of the settings in force (or, for restart-only keys, acknowledged): a change is
	 * what differs from these, not from a refused change seen since.
	 */
	private Map<String, String> inForce;

	SettingsReload(ManagedClientsFactory factory, ManagedClients clients, DeclaredClients declared,
			Environment environment, ConfigHistory history) {
		this.factory = factory;
		this.clients = clients;
		this.declared = declared;
		this.environment = environment;
		this.history = history;
		this.analyzers = List.of(new InvalidPolicyFailureAnalyzer(environment),
				new ConflictingSettingFailureAnalyzer(environment), new UnknownPropertyFailureAnalyzer(),
				new PropertyBindingFailureAnalyzer());
		this.seen = values(environment);
		this.inForce = this.seen;
	}

	/**
	 * Act on a change of the environment: when a {@code triage.*} value differs from what it was, bind, validate
	 * and apply. The values are compared rather than the event's keys trusted: Spring Cloud publishes the event
	 * with no keys when a property source was changed before the refresh looked (commons #1727).
	 * @param eventKeys the keys the event names
	 */
	synchronized void changed(Set<String> eventKeys) {
		Map<String, String> now = values(this.environment);
		if (now.equals(this.seen)) {
			return;
		}
		this.seen = now;
		Set<String> changed = new TreeSet<>();
		now.forEach((key, value) -> {
			if (!value.equals(this.inForce.get(key))) {
				changed.add(key);
			}
		});
		this.inForce.keySet().stream().filter((key) -> !now.containsKey(key)).forEach(changed::add);
		if (changed.isEmpty()) {
			// Back to the settings in force after a refused change: nothing to apply, the version stays.
			logger.info("Triage settings are again those of version " + this.history.status().version()
					+ " in force: nothing to apply");
			return;
		}
		if (reload(changed)) {
			this.inForce = now;
		}
	}

	/**
	 * Every value under {@code triage.}, by its name, whatever property source and form it came from.
	 */
	private static Map<String, String> values(Environment environment) {
		Map<String, String> values = new TreeMap<>();
		try {
			Binder.get(environment)
				.bind("triage", Bindable.mapOf(String.class, Object.class))
				.ifBound((tree) -> flatten("triage", tree, values));
		}
		catch (RuntimeException ex) {
			// Unreadable as a tree (a value where a section was): let the reload's bind say what is wrong.
			values.put("triage", "unreadable: " + ex.getClass().getSimpleName());
		}
		return values;
	}

	private static void flatten(String prefix, Object value, Map<String, String> into) {
		if (value instanceof Map<?, ?> map) {
			map.forEach((key, nested) -> flatten(prefix + "." + key, nested, into));
			if (prefix.endsWith(".channels")) {
				// A client's channels fail over in the order they are written: the order is a setting too.
				into.put(prefix, "in this order: " + map.keySet());
			}
		}
		else if (value instanceof Collection<?> list) {
			int i = 0;
			for (Object item : list) {
				flatten(prefix + "[" + i++ + "]", item, into);
			}
		}
		else {
			into.put(prefix, byValue(String.valueOf(value)));
		}
	}

	/**
	 * A value as it compares: a number or a duration by what it is worth ({@code 0} and {@code 0.0}, {@code 1s}
	 * and {@code 1000ms} are the same value), anything else as written.
	 */
	static String byValue(String value) {
		String trimmed = value.trim();
		if (!trimmed.isEmpty() && (Character.isDigit(trimmed.charAt(0)) || "+-.".indexOf(trimmed.charAt(0)) >= 0)) {
			try {
				BigDecimal number = new BigDecimal(trimmed);
				return (number.signum() == 0) ? "0" : number.stripTrailingZeros().toPlainString();
			}
			catch (NumberFormatException ex) {
				// not a number: perhaps a duration
			}
		}
		try {
			return "duration " + DurationStyle.detectAndParse(trimmed).toNanos();
		}
		catch (IllegalArgumentException | ArithmeticException ex) {
			return value;
		}
	}

	/**
	 * Bind the settings afresh and put them in force, or refuse them whole.
	 * @param changedKeys the keys that changed, for the log
	 * @return whether the change was applied, or acknowledged (restart-only keys alone); {@code false} when refused
	 */
	private boolean reload(Set<String> changedKeys) {
		ManagedClientsFactory next;
		try {
			next = this.factory.withProperties(bind(this.environment), this.declared);
		}
		catch (RuntimeException ex) {
			String reason = reason(ex);
			this.history.rejected(reason);
			logger.error("Triage refused the changed settings and keeps version " + this.history.status().version()
					+ " in force: " + reason);
			return false;
		}
		warnAboutRestartOnly(changedKeys);
		if (changedKeys.stream().allMatch(SettingsReload::needsRestart)) {
			// Nothing to put in force before the next start: the version in force stays.
			return true;
		}
		this.clients.reload(next::rebuild, next::late);
		this.factory = next;
		long version = this.history.applied();
		logger.info("Triage put settings version " + version + " in force (changed: " + changedKeys + ")");
		return true;
	}

	/**
	 * Bind {@code triage.*} as the startup does: unknown keys and keys that lose characters refused, durations and
	 * sizes converted.
	 */
	static TriageProperties bind(Environment environment) {
		WrittenKeys.rejectLostCharacters(environment);
		BindHandler handler = new NoUnboundElementsBindHandler(new IgnoreTopLevelConverterNotFoundBindHandler(),
				new UnboundElementsSourceFilter());
		return Binder.get(environment).bindOrCreate("triage", Bindable.of(TriageProperties.class), handler);
	}

	private String reason(RuntimeException ex) {
		for (FailureAnalyzer analyzer : this.analyzers) {
			FailureAnalysis analysis = analyzer.analyze(ex);
			if (analysis != null) {
				return analysis.getDescription().replaceAll("\\s*\\n\\s*", " ").trim() + " Action: "
						+ analysis.getAction();
			}
		}
		return ex.getClass().getSimpleName() + ": " + ex.getMessage();
	}

	private void warnAboutRestartOnly(Set<String> changedKeys) {
		Set<String> restartOnly = new TreeSet<>();
		changedKeys.stream().filter(SettingsReload::needsRestart).forEach(restartOnly::add);
		if (!restartOnly.isEmpty()) {
			logger.warn("Triage applies " + restartOnly + " at the next start, not while the application runs");
		}
	}

	/**
	 * Whether a key is read once at startup: switching Triage or a client on or off, the fleet store, the
	 * connection pool, the call log's window and the fleet rate limits.
	 */
	static boolean needsRestart(String key) {
		String name = canonical(key);
		return name.equals("triage.enabled") || name.startsWith("triage.fleet.")
				|| name.startsWith("triage.connectionpool.") || name.equals("triage.calllogwindow")
				|| (name.startsWith("triage.clients.") && (name.endsWith(".enabled") && name.split("\\.").length == 4
						|| name.contains(".fleetratelimit.")));
	}

	/** Lower case without dashes or underscores, dots for underscores of environment variables. */
	private static String canonical(String key) {
		String name = key.toLowerCase(Locale.ROOT);
		if (!name.contains(".") && name.contains("_")) {
			name = name.replace('_', '.');
		}
		return name.replace("-", "").replace("_", "");
	}

}
