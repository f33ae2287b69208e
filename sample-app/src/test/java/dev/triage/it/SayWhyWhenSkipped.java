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
