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

package dev.triage.fallback;

import dev.triage.TriageFallback;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.core.ResolvableType;

/**
 * Finds the {@link TriageFallback} bean of a Feign client by the generic type: {@code TriageFallback<C>} for
 * client interface {@code C}.
 */
public final class FallbackResolver {

	private final ListableBeanFactory beanFactory;

	/**
	 * Create a resolver.
	 * @param beanFactory the application's bean factory
	 */
	public FallbackResolver(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Return the fallback of a client.
	 * @param clientType the Feign client interface
	 * @return the fallback, or {@code null} when none is declared
	 * @throws NoUniqueBeanDefinitionException when several are declared
	 */
	public TriageFallback<?> forClient(Class<?> clientType) {
		ResolvableType type = ResolvableType.forClassWithGenerics(TriageFallback.class, clientType);
		String[] names = this.beanFactory.getBeanNamesForType(type);
		if (names.length > 1) {
			throw new NoUniqueBeanDefinitionException(type, names);
		}
		return (names.length == 1) ? (TriageFallback<?>) this.beanFactory.getBean(names[0]) : null;
	}

}
