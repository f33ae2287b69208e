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

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns a setting of another library that Triage cannot work with into a startup message that names it, says
 * why and how to fix it.
 */
class ConflictingSettingFailureAnalyzer extends AbstractFailureAnalyzer<ConflictingSettingException> {

	private final Environment environment;

	/**
	 * Create the analyzer; Spring Boot passes the failed application's environment.
	 * @param environment the environment the origins are looked up in, may be {@code null}
	 */
	ConflictingSettingFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ConflictingSettingException cause) {
		String description = "Triage cannot manage " + cause.clients() + " with this setting.\n\n    Property: "
				+ cause.property() + "\n    Value: " + cause.value() + PropertyOrigins.line(this.environment, cause.property())
				+ "\n    Reason: " + cause.reason();
		return new FailureAnalysis(description, cause.fix(), cause);
	}

}
