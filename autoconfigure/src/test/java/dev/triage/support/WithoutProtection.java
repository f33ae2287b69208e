package dev.triage.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.TestPropertySource;

/**
 * Switches off the retry budget, adaptive throttling, the pause on {@code Retry-After} and poison-request
 * detection of every client. For tests of the policy table,
 * breakers and fallbacks, which send many failing calls in a row through one shared context: there the
 * protection would (rightly) start refusing and cut the counts those tests are about. The overload tests
 * exercise it with the defaults.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@TestPropertySource(properties = { "triage.retry-budget.enabled=false", "triage.throttle.enabled=false",
		"triage.policies.429.pause=false", "triage.policies.498.pause=false", "triage.policies.503.pause=false",
		"triage.poison.enabled=false" })
public @interface WithoutProtection {

}
