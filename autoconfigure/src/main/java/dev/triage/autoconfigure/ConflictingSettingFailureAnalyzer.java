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

/**
 * Turns a setting of another library that Triage cannot work with into a startup message that names it, says
 * why and how to fix it.
 */
class ConflictingSettingFailureAnalyzer extends AbstractFailureAnalyzer<ConflictingSettingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ConflictingSettingException cause) {
		String description = "Triage cannot manage Feign clients with this setting.\n\n    Property: "
				+ cause.property() + "\n    Value: " + cause.value() + "\n    Reason: " + cause.reason();
		return new FailureAnalysis(description, cause.fix(), cause);
	}

}
