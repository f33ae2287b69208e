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

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

import dev.triage.breaker.UpstreamBreakers;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.common.CompositeCustomizer;
import io.github.resilience4j.common.circuitbreaker.configuration.CircuitBreakerConfigCustomizer;
import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties;
import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties.InstanceProperties;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Puts Triage's breaker defaults underneath whatever the application configures for Triage's breakers, field
 * by field, the way Resilience4j layers its own configuration: Triage's defaults (SPEC §6), then
 * {@code resilience4j.circuitbreaker.configs.default} (or the instance's {@code base-config}), then the
 * instance's own fields. Setting one property ({@code minimum-number-of-calls: 2}) changes that field only, instead
 * of dropping every other field to Resilience4j's defaults (a 60s open wait, a 100-call minimum).
 * <p>
 * Triage's breakers also show in {@code /actuator/health} by default ({@code register-health-indicator: true}),
 * and an open one does not take the application down ({@code allow-health-indicator-to-fail: false}, as
 * Resilience4j means it: a dependency's outage is not this application's death).
 */
final class BreakerDefaults implements BeanPostProcessor, BeanClassLoaderAware, UpstreamBreakers.LateSettings {

	private final ListableBeanFactory beanFactory;

	private final Environment environment;

	private ClassLoader classLoader = ClassUtils.getDefaultClassLoader();

	/** Resilience4j's breaker settings as bound, once seen; {@code null} before. */
	private volatile CommonCircuitBreakerConfigurationProperties properties;

	/** The breakers whose settings were layered over Triage's defaults. */
	private final Set<String> layered = ConcurrentHashMap.newKeySet();

	/** The instance settings Triage added for breakers the application does not configure. */
	private final Set<InstanceProperties> added = Collections
		.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

	BreakerDefaults(ListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		// Bound at startup, and bound again by Spring Cloud Context's rebinder on a refresh: the layering is done
		// again over what the application configures then, for every breaker layered so far.
		if (bean instanceof CommonCircuitBreakerConfigurationProperties properties) {
			this.properties = properties;
			Set<String> names = managedBreakerNames();
			names.addAll(this.layered);
			names.forEach((name) -> {
				apply(properties, name);
				this.layered.add(name);
			});
		}
		return bean;
	}

	/**
	 * Return the settings of a breaker met after startup (an HTTP service client's, a channel added while running)
	 * layered the same way: Resilience4j created it at startup from the application's settings alone, or has not
	 * created it.
	 * @param name the breaker's name
	 * @return its settings, {@code null} when they were layered at startup (or Resilience4j's settings are unknown)
	 */
	@Override
	public CircuitBreakerConfig of(String name) {
		CommonCircuitBreakerConfigurationProperties properties = this.properties;
		if (properties == null || !this.layered.add(name)) {
			return null;
		}
		apply(properties, name);
		return properties.createCircuitBreakerConfig(name, properties.getInstances().get(name), customizer());
	}

	@Override
	public void removed(String name) {
		this.layered.remove(name);
		CommonCircuitBreakerConfigurationProperties properties = this.properties;
		if (properties != null && this.added.remove(properties.getInstances().get(name))) {
			properties.getInstances().remove(name);
		}
	}

	@SuppressWarnings("unchecked")
	private CompositeCustomizer<CircuitBreakerConfigCustomizer> customizer() {
		ObjectProvider<CompositeCustomizer<CircuitBreakerConfigCustomizer>> customizers = this.beanFactory
			.getBeanProvider(ResolvableType.forClassWithGenerics(CompositeCustomizer.class,
					CircuitBreakerConfigCustomizer.class));
		return customizers.getIfAvailable(() -> new CompositeCustomizer<>(List.of()));
	}

	private Set<String> managedBreakerNames() {
		// Names and switches only, as written: a value of another setting that does not convert is refused where
		// Triage's settings are bound, and must neither fail Resilience4j's binding here (at a refresh) nor be
		// printed whole in the exception that would.
		Binder binder = Binder.get(this.environment);
		Map<String, Object> clients = binder.bind("triage.clients", Bindable.mapOf(String.class, Object.class))
			.orElse(Map.of());
		Set<String> names = new LinkedHashSet<>();
		// Spring Cloud OpenFeign may be absent (HTTP service clients alone): its types are touched only when present.
		Set<String> feignClients = ClassUtils.isPresent(FeignClientNames.SPECIFICATION, this.classLoader)
				? FeignClientNames.declared(this.beanFactory, this.environment, this.classLoader).names() : Set.of();
		feignClients.stream()
			.filter((name) -> !clients.containsKey(name) || enabled(binder, name))
			.forEach(names::add);
		clients.keySet().forEach((client) -> {
			if (enabled(binder, client)) {
				binder.bind("triage.clients[" + client + "].channels", Bindable.mapOf(String.class, Object.class))
					.orElse(Map.of())
					.keySet()
					.forEach((channel) -> names.add(ChannelSettings.breakerName(client, channel)));
			}
		});
		return names;
	}

	private static boolean enabled(Binder binder, String client) {
		try {
			return binder.bind("triage.clients[" + client + "].enabled", Boolean.class).orElse(true);
		}
		catch (BindException ex) {
			return true;
		}
	}

	private void apply(CommonCircuitBreakerConfigurationProperties properties, String name) {
		InstanceProperties instance = properties.getInstances().get(name);
		if (instance == null || this.added.remove(instance)) {
			// not configured by the application (now): Triage's own, filled afresh from the base config of now
			instance = new InstanceProperties();
			properties.getInstances().put(name, instance);
			this.added.add(instance);
		}
		String baseName = (instance.getBaseConfig() != null) ? instance.getBaseConfig() : "default";
		InstanceProperties base = properties.getConfigs().get(baseName);
		CircuitBreakerConfig defaults = UpstreamBreakers.DEFAULTS;
		fill(instance, base, InstanceProperties::getSlidingWindowType, InstanceProperties::setSlidingWindowType,
				defaults.getSlidingWindowType());
		fill(instance, base, InstanceProperties::getSlidingWindowSize, InstanceProperties::setSlidingWindowSize,
				defaults.getSlidingWindowSize());
		fill(instance, base, InstanceProperties::getMinimumNumberOfCalls, InstanceProperties::setMinimumNumberOfCalls,
				defaults.getMinimumNumberOfCalls());
		fill(instance, base, InstanceProperties::getFailureRateThreshold, InstanceProperties::setFailureRateThreshold,
				defaults.getFailureRateThreshold());
		fill(instance, base, InstanceProperties::getWaitDurationInOpenState,
				InstanceProperties::setWaitDurationInOpenState,
				Duration.ofMillis(defaults.getWaitIntervalFunctionInOpenState().apply(1)));
		fill(instance, base, InstanceProperties::getPermittedNumberOfCallsInHalfOpenState,
				InstanceProperties::setPermittedNumberOfCallsInHalfOpenState,
				defaults.getPermittedNumberOfCallsInHalfOpenState());
		fill(instance, base, InstanceProperties::getRegisterHealthIndicator, InstanceProperties::setRegisterHealthIndicator,
				true);
		fill(instance, base, InstanceProperties::getAllowHealthIndicatorToFail,
				InstanceProperties::setAllowHealthIndicatorToFail, false);
	}

	/**
	 * Set a field of the instance to Triage's default when neither the instance nor its base config sets it.
	 */
	private static <T> void fill(InstanceProperties instance, InstanceProperties base,
			Function<InstanceProperties, T> getter, BiConsumer<InstanceProperties, T> setter, T triageDefault) {
		if (getter.apply(instance) == null && (base == null || getter.apply(base) == null)) {
			setter.accept(instance, triageDefault);
		}
	}

}
