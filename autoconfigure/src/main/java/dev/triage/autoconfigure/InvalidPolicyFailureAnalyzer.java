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

import dev.triage.policy.InvalidPolicyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns a bad policy table, or another bad Triage setting (a retry budget, a fleet setting), into a startup
 * message that names the property, the bad value, where it was set and what is allowed.
 */
class InvalidPolicyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPolicyException> {

	private final Environment environment;

	/**
	 * Create the analyzer; Spring Boot passes the failed application's environment.
	 * @param environment the environment the origins are looked up in, may be {@code null}
	 */
	InvalidPolicyFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPolicyException cause) {
		String property = cause.getProperty();
		boolean table = property.contains(".policies") || property.contains("error-types");
		String description = (table ? "Triage's policy table is invalid." : "A Triage setting is invalid.")
				+ "\n\n    Property: " + cause.getProperty()
				+ "\n    Value: " + cause.getValue() + PropertyOrigins.line(this.environment, cause.getProperty())
				+ "\n    Allowed: " + cause.getAllowed();
		String action = "Update '" + cause.getProperty() + "' in your application's configuration to "
				+ cause.getAllowed() + ".";
		return new FailureAnalysis(description, action, cause);
	}

}
