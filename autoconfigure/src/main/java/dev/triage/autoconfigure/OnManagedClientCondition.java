package dev.triage.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches in a Feign client context unless {@code triage.clients.<name>.enabled} is false; {@code --debug}'s
 * condition report says which client and why.
 */
class OnManagedClientCondition extends SpringBootCondition {

	static final String CLIENT_NAME_PROPERTY = "spring.cloud.openfeign.client.name";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("Triage-managed Feign client");
		String name = context.getEnvironment().getProperty(CLIENT_NAME_PROPERTY);
		if (name == null) {
			return ConditionOutcome.noMatch(message.because("this is not a Feign client context ('"
					+ CLIENT_NAME_PROPERTY + "' is not set)"));
		}
		String enabled = "triage.clients." + name + ".enabled";
		if (!context.getEnvironment().getProperty(enabled, Boolean.class, true)) {
			return ConditionOutcome.noMatch(message.because("client '" + name + "' has " + enabled + "=false"));
		}
		return ConditionOutcome.match(message.because("client '" + name + "' is managed"));
	}

}
