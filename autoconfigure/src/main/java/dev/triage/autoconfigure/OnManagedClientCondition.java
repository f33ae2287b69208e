package dev.triage.autoconfigure;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches in a Feign client context unless {@code triage.clients.<name>.enabled} is false.
 */
class OnManagedClientCondition implements Condition {

	static final String CLIENT_NAME_PROPERTY = "spring.cloud.openfeign.client.name";

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		String name = context.getEnvironment().getProperty(CLIENT_NAME_PROPERTY);
		if (name == null) {
			return false;
		}
		return context.getEnvironment().getProperty("triage.clients." + name + ".enabled", Boolean.class, true);
	}

}
