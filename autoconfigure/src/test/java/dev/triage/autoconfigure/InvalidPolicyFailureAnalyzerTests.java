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

import static org.assertj.core.api.Assertions.assertThat;

import dev.triage.policy.InvalidPolicyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.triage.support.TestApplication;

@ExtendWith(OutputCaptureExtension.class)
class InvalidPolicyFailureAnalyzerTests {

	@Test
	void analysisNamesPropertyValueAndAllowedValues() {
		InvalidPolicyException failure = new InvalidPolicyException("triage.policies.5xx.backoff.jitter", 1.5,
				"a number from 0 to 1");

		FailureAnalysis analysis = new InvalidPolicyFailureAnalyzer(null).analyze(new IllegalStateException(failure));

		assertThat(analysis.getDescription()).contains("triage.policies.5xx.backoff.jitter").contains("1.5")
			.contains("a number from 0 to 1");
		assertThat(analysis.getAction()).contains("triage.policies.5xx.backoff.jitter");
	}

	@ParameterizedTest(name = "{0}={1} fails startup with a message naming it")
	@CsvSource(delimiter = '|', value = { "triage.policies.5xy.max-attempts|2|5xy|unknown-status",
			"triage.policies.503.max-attempts|0|triage.policies.503.max-attempts|at least 1",
			"triage.policies.5xx.backoff.jitter|1.5|triage.policies.5xx.backoff.jitter|from 0 to 1",
			"triage.policies.429.backoff.initial|-200ms|triage.policies.429.backoff.initial|at least 1ms",
			"triage.policies.429.backoff.initial|-1s|triage.policies.429.backoff.initial|at least 1ms",
			"triage.policies.5xx.breaker|maybe|triage.policies.5xx.breaker|one of failure, success, ignore",
			"triage.policies.5xx.retry-after|sometimes|triage.policies.5xx.retry-after|one of honor, ignore",
			"triage.policies.5xx.alert|often|triage.policies.5xx.alert|true or false",
			"triage.error-types.Overloaded.breaker|maybe|Property: triage.error-types[Overloaded].breaker|one of failure",
			"triage.clients.inventory.error-types.Overloaded.alert|often|Property: triage.clients.inventory.error-types[Overloaded].alert|true or false",
			"triage.error-types.Overloaded.max-attempts|0|Property: triage.error-types[Overloaded].max-attempts|at least 1",
			"triage.error-types.boom.breaker|maybe|Property: triage.error-types.boom.breaker|Allowed: one of failure",
			"triage.retry-budget.enabled|often|Property: triage.retry-budget.enabled|Allowed: true or false",
			"triage.call-log-window|-1s|triage.call-log-window|a duration of 0 (every call logged) or more" })
	void startupFailsWithAReadableMessage(String property, String value, String named, String allowed,
			CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> application
			.run("--" + property + "=" + value, "--test.upstream.inventory=http://127.0.0.1:9",
					"--test.upstream.billing=http://127.0.0.1:9"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START").contains(named).contains(value).contains(allowed)
			.contains("Origin: \"" + property + "\" from property source \"commandLineArgs\"")
			.as("in the words of the YAML, not of Java types").doesNotContain("dev.triage.policy.", "java.lang.");
	}

	@Test
	void aBadSettingOutsideTheTableIsNotCalledABadTable(CapturedOutput output) {
		Throwable thrown = run("--triage.retry-budget.ratio=-1");

		assertThat(thrown).isNotNull();
		assertThat(output).contains("A Triage setting is invalid.")
			.contains("Property: triage.retry-budget.ratio")
			.doesNotContain("policy table");
	}

	@Test
	void startupFailureShowsTheFileAndLineOfTheBadValue(CapturedOutput output) {
		Throwable thrown = run("--spring.config.location=classpath:config-errors/jitter.yml");

		assertThat(thrown).isNotNull();
		assertThat(output).contains("Property: triage.policies.5xx.backoff.jitter")
			.contains("Origin: class path resource [config-errors/jitter.yml] - 5:17")
			.contains("Allowed: a number from 0 to 1");
	}

	@Test
	void anUnknownIdempotentMethodFailsStartupNamingThePropertyAndTheAllowedMethods(CapturedOutput output) {
		Throwable thrown = run("--triage.idempotent-methods=GET,FOO");

		assertThat(thrown).isNotNull();
		assertThat(output).contains("Property: triage.idempotent-methods[1]")
			.contains("Value: FOO")
			.contains("Origin: \"triage.idempotent-methods\" from property source \"commandLineArgs\"")
			.contains("Allowed: an HTTP method: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS or TRACE");
	}

	@Test
	void aDottedErrorTypeIsNamedInBracketsWithItsOrigin(CapturedOutput output) {
		Throwable thrown = run("--triage.error-types.[com.acme.Overloaded].max-attempts=0");

		assertThat(thrown).isNotNull();
		assertThat(output).contains("Property: triage.error-types[com.acme.Overloaded].max-attempts")
			.contains("Origin: \"triage.error-types.[com.acme.Overloaded].max-attempts\" from property source");
	}

	@Test
	void anErrorTypeWithAnUnderscoreHasItsOriginToo(CapturedOutput output) {
		Throwable thrown = run("--triage.error-types.overloaded_error.max-attempts=0");

		assertThat(thrown).isNotNull();
		assertThat(output).contains("overloaded_error").contains("Value: 0")
			.contains("Origin: \"triage.error-types.overloaded_error.max-attempts\" from property source");
	}

	private static Throwable run(String... args) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
				java.util.stream.Stream.of("--test.upstream.inventory=http://127.0.0.1:9",
						"--test.upstream.billing=http://127.0.0.1:9"))
			.toArray(String[]::new);
		return org.assertj.core.api.Assertions.catchThrowable(() -> application.run(all));
	}

}
