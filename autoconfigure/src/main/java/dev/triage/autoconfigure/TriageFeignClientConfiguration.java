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

import dev.triage.engine.ManagedClient;
import dev.triage.engine.ManagedClients;
import dev.triage.fallback.FallbackResolver;
import dev.triage.feign.TriageCapability;
import dev.triage.feign.TriageErrorDecoder;
import dev.triage.feign.TriageRetryer;
import feign.Capability;
import feign.Retryer;
import feign.codec.ErrorDecoder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Registered in each Feign client's own context: the client's error decoder, retryer and capability, all bound to
 * the managed client of the {@code @FeignClient} name (shared by every {@code contextId} of that name), the
 * capability with the fallback of the context's own interface. A decoder or retryer declared in the client's
 * configuration (or the application) wins.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(OnManagedClientCondition.class)
class TriageFeignClientConfiguration {

	@Bean
	ManagedClient triageManagedClient(ManagedClients clients, ObjectProvider<DeclaredClients> declared,
			Environment environment) {
		String contextId = environment.getProperty(OnManagedClientCondition.CLIENT_NAME_PROPERTY);
		return clients.client(declared.getIfAvailable(() -> DeclaredClients.NONE).name(contextId));
	}

	@Bean
	@ConditionalOnMissingBean
	ErrorDecoder triageErrorDecoder(ManagedClient client) {
		return new TriageErrorDecoder(client);
	}

	@Bean
	@ConditionalOnMissingBean
	Retryer triageRetryer(ManagedClient client) {
		return new TriageRetryer(client);
	}

	@Bean
	Capability triageCapability(ManagedClient client, FallbackResolver fallbacks) {
		return new TriageCapability(client, fallbacks::forClient);
	}

}
