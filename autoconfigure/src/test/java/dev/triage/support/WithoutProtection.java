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
