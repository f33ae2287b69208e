package dev.triage.autoconfigure;

import dev.triage.policy.InvalidPolicyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a bad policy table into a startup message that names the property, the bad value and what is
 * allowed.
 */
class InvalidPolicyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPolicyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPolicyException cause) {
		String description = "Triage's policy table is invalid.\n\n    Property: " + cause.getProperty()
				+ "\n    Value: " + cause.getValue() + "\n    Allowed: " + cause.getAllowed();
		String action = "Update '" + cause.getProperty() + "' in your application's configuration to "
				+ cause.getAllowed() + ".";
		return new FailureAnalysis(description, action, cause);
	}

}
