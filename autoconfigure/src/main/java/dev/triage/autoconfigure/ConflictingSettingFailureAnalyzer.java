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
