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
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * "Did you mean" corrects every misspelt segment of a key, not only its last one, and tells a dotted map key
 * to use brackets.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertyFailureAnalyzerTests {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', value = { "triage.retry-buget.ratio|triage.retry-budget.ratio",
			"triage.policies.5xx.backof.initial|triage.policies.5xx.backoff.initial",
			"triage.clients.inventory.policies.503.max-attempt|triage.clients.inventory.policies.503.max-attempts",
			"triage.clients.inventory.dedline|triage.clients.inventory.deadline",
			"triage.clinets.inventory.deadline|triage.clients.inventory.deadline",
			"triage.throttle.max-drop-probabilty|triage.throttle.max-drop-probability",
			"triage.clients.inventory.poison.thresold|triage.clients.inventory.poison.threshold",
			"triage.conection-pool.evict-idle-after|triage.connection-pool.evict-idle-after",
			"triage.error-types.com.acme.Overloaded.max-attempts|triage.error-types.[com.acme.Overloaded].max-attempts",
			"triage.clients.llm.error-types.com.acme.Overloaded.backoff.initial|triage.clients.llm.error-types.[com.acme.Overloaded].backoff.initial",
			"triage.error-types.overloaded.max-atempts|triage.error-types.overloaded.max-attempts" })
	void suggestsTheValidKeyWithEverySegmentCorrected(String written, String meant) {
		assertThat(UnknownPropertyFailureAnalyzer.closest(written)).isEqualTo(meant);
	}

	@Test
	void startupFailureNamesTheCorrectedKeysWhereTheTyposAreAndTheBracketsADottedKeyNeeds(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable thrown = catchThrowable(() -> application.run(
				"--spring.config.location=classpath:config-errors/typos.yml",
				"--test.upstream.inventory=http://127.0.0.1:9", "--test.upstream.billing=http://127.0.0.1:9"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Did you mean: triage.retry-budget.ratio")
			.contains("Did you mean: triage.policies.5xx.backoff.initial")
			.contains("Did you mean: triage.error-types.[com.acme.Overloaded].max-attempts")
			.contains("'com.acme.Overloaded' is one map key with dots in it")
			.contains("\"[com.acme.Overloaded]\"")
			.contains("Origin: class path resource [config-errors/typos.yml] - 3:12")
			.doesNotContain("Did you mean: triage.retry-buget")
			.doesNotContain("Did you mean: triage.policies.5xx.backof.");
	}

	@Test
	void aTypeUriWrittenWithoutBracketsIsSuggestedWithItsColonsAndSlashes(CapturedOutput output) {
		Throwable thrown = catchThrowable(() -> start("uri-key.yml"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("triage.error-types.[https://example.com/probs/out-of-credit].max-attempts")
			.doesNotContain("Did you mean: triage.error-types.[httpsexample");
	}

	@Test
	void aKeyThatWouldLoseCharactersWithoutBracketsFailsStartupInsteadOfNeverMatching(CapturedOutput output) {
		Throwable thrown = catchThrowable(() -> start("urn-key.yml"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: triage.error-types.urn:acme:quota.max-attempts")
			.contains("triage.error-types.[urn:acme:quota].max-attempts")
			.contains("reads triage.error-types.urnacmequota.max-attempts")
			.as("in application.properties a colon ends the key unless escaped")
			.contains("in application.properties triage.error-types.[urn\\:acme\\:quota].max-attempts");
	}

	@Test
	void aKeyCutShortByAnUnescapedColonInAPropertiesFileSaysHowToEscapeIt(CapturedOutput output) {
		Throwable thrown = catchThrowable(() -> start("urn-key.properties"));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: triage.error-types.urn")
			.contains("settings under this key, not a value")
			.contains("triage.error-types[urn\\:acme\\:quota]");
	}

	private static void start(String config) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run("--spring.config.location=classpath:config-errors/" + config,
				"--test.upstream.inventory=http://127.0.0.1:9", "--test.upstream.billing=http://127.0.0.1:9")
			.close();
	}

}
