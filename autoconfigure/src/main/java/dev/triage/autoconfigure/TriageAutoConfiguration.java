package dev.triage.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.triage.breaker.UpstreamBreakers;
import dev.triage.fallback.FallbackResolver;
import dev.triage.feign.CallLog;
import dev.triage.feign.CallObserver;
import dev.triage.feign.CompositeCallObserver;
import dev.triage.policy.InvalidPolicyException;
import dev.triage.feign.ManagedClients;
import feign.Feign;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration that gives every Spring Cloud OpenFeign client Triage's error decoder, retryer,
 * per-upstream breaker and fallback, driven by {@code triage.*} properties.
 */
@AutoConfiguration(before = FeignAutoConfiguration.class,
		afterName = "io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration")
@ConditionalOnClass({ Feign.class, FeignClientSpecification.class })
@ConditionalOnBooleanProperty(name = "triage.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TriageProperties.class)
@Import({ TriageHttpClient5Configuration.class, TriageMetricsConfiguration.class, TriageEndpointConfiguration.class })
public class TriageAutoConfiguration {

	static final String SPECIFICATION_NAME = "default.dev.triage.feign.TriageFeignClientConfiguration";

	/**
	 * Registers Triage's per-client configuration in every Feign client context.
	 * @return the specification
	 */
	@Bean
	static FeignClientSpecification triageFeignClientSpecification() {
		return new FeignClientSpecification(SPECIFICATION_NAME, TriageAutoConfiguration.class.getName(),
				new Class<?>[] { TriageFeignClientConfiguration.class });
	}

	@Bean
	@ConditionalOnMissingBean
	ManagedClients triageManagedClients(TriageProperties properties,
			ObjectProvider<FeignClientSpecification> specifications, ObjectProvider<CircuitBreakerRegistry> registry,
			ObjectProvider<FeignHttpClientProperties> httpClientProperties, ObjectProvider<CallObserver> observers,
			ConfigurableListableBeanFactory beanFactory, Environment environment) {
		rejectSecondBreakerLayer(environment);
		UpstreamBreakers breakers = new UpstreamBreakers(registry.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
				(name) -> breakerConfigured(environment, name));
		ManagedClientsFactory factory = new ManagedClientsFactory(properties, breakers, new FallbackResolver(beanFactory),
				observer(observers), poolTimeout(httpClientProperties.getIfAvailable()));
		Map<String, String> clients = new LinkedHashMap<>();
		specifications.orderedStream()
			.filter((spec) -> !spec.getName().startsWith("default."))
			.forEach((spec) -> clients.put(spec.getName(), spec.getClassName()));
		return factory.create(clients, beanFactory.getBeanClassLoader());
	}

	private static CallObserver observer(ObjectProvider<CallObserver> observers) {
		List<CallObserver> all = new ArrayList<>();
		all.add(new CallLog());
		observers.orderedStream().forEach(all::add);
		return new CompositeCallObserver(all);
	}

	/**
	 * Spring Cloud OpenFeign's own circuit breaker would wrap every managed client in a second breaker, per
	 * method, that counts Triage's typed exceptions (a 400 included) as failures: refuse rather than
	 * double-count.
	 */
	private static void rejectSecondBreakerLayer(Environment environment) {
		if (environment.getProperty("spring.cloud.openfeign.circuitbreaker.enabled", Boolean.class, false)) {
			throw new InvalidPolicyException("spring.cloud.openfeign.circuitbreaker.enabled", true,
					"false while Triage manages Feign clients: Triage already gives each upstream one Resilience4j "
							+ "breaker (configure it under resilience4j.circuitbreaker.instances.<client>) and "
							+ "TriageFallback beans replace @FeignClient(fallback); or set triage.enabled=false");
		}
	}

	private static Duration poolTimeout(FeignHttpClientProperties properties) {
		if (properties == null) {
			return null;
		}
		FeignHttpClientProperties.Hc5Properties hc5 = properties.getHc5();
		return Duration.of(hc5.getConnectionRequestTimeout(), hc5.getConnectionRequestTimeoutUnit().toChronoUnit());
	}

	private static boolean breakerConfigured(Environment environment, String name) {
		ConfigurationPropertyName instance = ConfigurationPropertyName
			.adapt("resilience4j.circuitbreaker.instances." + name, '.');
		ConfigurationPropertyName defaults = ConfigurationPropertyName.of("resilience4j.circuitbreaker.configs.default");
		for (var source : ConfigurationPropertySources.get(environment)) {
			if (source.containsDescendantOf(instance) == ConfigurationPropertyState.PRESENT
					|| source.containsDescendantOf(defaults) == ConfigurationPropertyState.PRESENT) {
				return true;
			}
		}
		return false;
	}

}
