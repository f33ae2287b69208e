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

package dev.triage.it;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Skips a Testcontainers class when no Docker engine answers, and says so on the console (JUnit's own skip
 * reason only reaches the XML reports).
 */
class SayWhyWhenSkipped implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if (context.getTestMethod().isPresent()) {
			return ConditionEvaluationResult.enabled("class already checked");
		}
		if (DockerClientFactory.instance().isDockerAvailable()) {
			return ConditionEvaluationResult.enabled("Docker is available");
		}
		String reason = context.getDisplayName()
				+ " SKIPPED: no Docker engine answers (install Docker, or run .ci/run which starts one)";
		System.out.println(reason);
		return ConditionEvaluationResult.disabled(reason);
	}

}
