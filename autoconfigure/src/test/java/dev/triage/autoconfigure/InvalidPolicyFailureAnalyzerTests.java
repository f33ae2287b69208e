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

		FailureAnalysis analysis = new InvalidPolicyFailureAnalyzer().analyze(new IllegalStateException(failure));

		assertThat(analysis.getDescription()).contains("triage.policies.5xx.backoff.jitter").contains("1.5")
			.contains("a number from 0 to 1");
		assertThat(analysis.getAction()).contains("triage.policies.5xx.backoff.jitter");
	}

	@ParameterizedTest(name = "{0}={1} fails startup with a message naming it")
	@CsvSource(delimiter = '|', value = { "triage.policies.5xy.max-attempts|2|5xy|unknown-status",
			"triage.policies.503.max-attempts|0|triage.policies.503.max-attempts|at least 1",
			"triage.policies.5xx.backoff.jitter|1.5|triage.policies.5xx.backoff.jitter|from 0 to 1",
			"triage.policies.429.backoff.initial|-200ms|triage.policies.429.backoff.initial|at least 1ms",
			"triage.policies.5xx.breaker|maybe|triage.policies.5xx.breaker|SUCCESS",
			"triage.policies.5xx.retry-after|sometimes|triage.policies.5xx.retry-after|HONOR" })
	void startupFailsWithAReadableMessage(String property, String value, String named, String allowed,
			CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> application
			.run("--" + property + "=" + value, "--test.upstream.inventory=http://127.0.0.1:9",
					"--test.upstream.billing=http://127.0.0.1:9"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START").contains(named).contains(value).contains(allowed);
	}

}
