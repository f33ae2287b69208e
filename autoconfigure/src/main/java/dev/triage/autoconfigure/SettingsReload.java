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

import java.util.List;
import java.util.Locale;
import java.util.Set;
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

	private final Set<String> declared;

	private final Environment environment;

	private final ConfigHistory history;

	private final List<FailureAnalyzer> analyzers;

	private ManagedClientsFactory factory;

	SettingsReload(ManagedClientsFactory factory, ManagedClients clients, Set<String> declared,
			Environment environment, ConfigHistory history) {
		this.factory = factory;
		this.clients = clients;
		this.declared = declared;
		this.environment = environment;
		this.history = history;
		this.analyzers = List.of(new InvalidPolicyFailureAnalyzer(environment),
				new ConflictingSettingFailureAnalyzer(environment), new UnknownPropertyFailureAnalyzer(),
				new PropertyBindingFailureAnalyzer());
	}

	/**
	 * Act on a change of the environment: when it names a key under {@code triage.}, bind, validate and apply.
	 * @param changedKeys the keys whose values changed
	 */
	void changed(Set<String> changedKeys) {
		Set<String> ours = new TreeSet<>();
		changedKeys.stream().filter(SettingsReload::isTriageKey).forEach(ours::add);
		if (!ours.isEmpty()) {
			reload(ours);
		}
	}

	/**
	 * Bind the settings afresh and put them in force, or refuse them whole.
	 * @param changedKeys the keys that changed, for the log
	 * @return whether the change was applied
	 */
	synchronized boolean reload(Set<String> changedKeys) {
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
		this.clients.reload(next::rebuild, next::late);
		this.factory = next;
		long version = this.history.applied();
		logger.info("Triage put settings version " + version + " in force (changed: " + changedKeys + ")");
		return true;
	}

	/**
	 * Bind {@code triage.*} as the startup does: unknown keys refused, durations and sizes converted.
	 */
	static TriageProperties bind(Environment environment) {
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

	private static boolean isTriageKey(String key) {
		return canonical(key).startsWith("triage.");
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
