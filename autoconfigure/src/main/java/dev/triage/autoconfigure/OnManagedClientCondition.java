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

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches in a Feign client context unless {@code triage.clients.<name>.enabled} is false, {@code <name>} being
 * the {@code @FeignClient} name (a context is named after the {@code contextId} when one is set); {@code --debug}'s
 * condition report says which client and why.
 */
class OnManagedClientCondition extends SpringBootCondition {

	static final String CLIENT_NAME_PROPERTY = "spring.cloud.openfeign.client.name";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("Triage-managed Feign client");
		String contextId = context.getEnvironment().getProperty(CLIENT_NAME_PROPERTY);
		if (contextId == null) {
			return ConditionOutcome.noMatch(message.because("this is not a Feign client context ('"
					+ CLIENT_NAME_PROPERTY + "' is not set)"));
		}
		String name = name(context, contextId);
		String enabled = "triage.clients." + name + ".enabled";
		if (!context.getEnvironment().getProperty(enabled, Boolean.class, true)) {
			return ConditionOutcome.noMatch(message.because("client '" + name + "' has " + enabled + "=false"));
		}
		return ConditionOutcome.match(message.because("client '" + name + "' is managed"));
	}

	/**
	 * Return the name of the client a Feign client context belongs to (its {@code @FeignClient} name, as the
	 * application's {@link DeclaredClients} has it).
	 * @param context the condition context of the Feign client context
	 * @param contextId the Feign client context's name
	 * @return the client's name
	 */
	static String name(ConditionContext context, String contextId) {
		DeclaredClients declared = (context.getBeanFactory() != null)
				? context.getBeanFactory().getBeanProvider(DeclaredClients.class).getIfAvailable() : null;
		return (declared != null) ? declared.name(contextId) : contextId;
	}

}
