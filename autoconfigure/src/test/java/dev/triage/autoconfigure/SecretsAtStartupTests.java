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

import java.util.ArrayList;
import java.util.List;

import dev.triage.policy.InvalidPolicyException;
import dev.triage.policy.ShownValues;
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
 * Every startup failure of Triage's settings that can involve a secret-bearing value: the failure report, the
 * log lines and the exception Triage throws name the property, never the secret.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsAtStartupTests {

	private static final String SECRET = "s3cr3t4711";

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
			"a channel URL with user info and a query|triage.clients.inventory.channels.backup=http://user:s3cr3t4711@127.0.0.1:9/base?token=s3cr3t4711|triage.clients.inventory.channels.backup",
			"a channel URL with user info|triage.clients.inventory.channels.backup=http://user:s3cr3t4711@127.0.0.1:9/base|triage.clients.inventory.channels.backup",
			"a channel URL with a fragment|triage.clients.inventory.channels.backup=http://127.0.0.1:9/base#s3cr3t4711|triage.clients.inventory.channels.backup",
			"a channel named primary|triage.clients.inventory.channels.primary=http://user:s3cr3t4711@127.0.0.1:9/base?token=s3cr3t4711|triage.clients.inventory.channels.primary",
			"a channel URL that is not absolute|triage.clients.inventory.channels.backup=user:s3cr3t4711@127.0.0.1:9/base?token=s3cr3t4711|triage.clients.inventory.channels.backup",
			"a channel URL that does not parse|triage.clients.inventory.channels.backup=http://user:s3cr3t4711@127.0.0.1:9/a b?token=s3cr3t4711|triage.clients.inventory.channels.backup",
			"a sensitive header written with its value|triage.sensitive-headers[0]=X-Token: s3cr3t4711|triage.sensitive-headers[0]",
			"a URL in the error-type pointers|triage.error-type-pointers[0]=http://user:s3cr3t4711@127.0.0.1:9/?token=s3cr3t4711|triage.error-type-pointers[0]",
			"a URL in the idempotent methods|triage.idempotent-methods[0]=http://user:s3cr3t4711@127.0.0.1:9/?token=s3cr3t4711|triage.idempotent-methods[0]",
			"a URL where a duration belongs|triage.clients.inventory.deadline=http://user:s3cr3t4711@127.0.0.1:9/?token=s3cr3t4711|triage.clients.inventory.deadline",
			"a URL under a key Triage does not know|triage.clients.inventory.channel.backup=http://user:s3cr3t4711@127.0.0.1:9/?token=s3cr3t4711|triage.clients.inventory.channel.backup",
			"an API key where a count belongs|triage.policies.503.max-attempts=sk-s3cr3t4711abcdefgh|triage.policies.503.max-attempts",
			"a bearer token where a duration belongs|triage.clients.inventory.deadline=Bearer s3cr3t4711|triage.clients.inventory.deadline",
			"a password where a duration belongs|triage.policies.5xx.backoff.initial=password=s3cr3t4711|triage.policies.5xx.backoff.initial" })
	void startupFailsNamingThePropertyNeverTheSecret(String description, String setting, String property,
			CapturedOutput output) {
		Throwable thrown = start(setting);

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START").contains(property).doesNotContain(SECRET);
		InvalidPolicyException invalid = find(thrown, InvalidPolicyException.class);
		if (invalid != null) {
			assertThat(messages(thrown)).noneMatch((message) -> message.contains(SECRET));
			assertThat(invalid.getValue()).doesNotContain(SECRET);
		}
	}

	@Test
	void aUrlIsShownWithoutUserInfoQueryOrFragment() {
		assertThat(ShownValues.of("http://user:pw@host:8080/base?token=t#f")).isEqualTo("http://***@host:8080/base?***");
		assertThat(ShownValues.of("https://host/base#frag?x")).isEqualTo("https://host/base#***");
		assertThat(ShownValues.of("user:pw@host/base")).isEqualTo("***@host/base");
		assertThat(ShownValues.of("http://a@b@host/p@q")).isEqualTo("http://***@host/p@q");
		assertThat(ShownValues.of("https://backup.example.com/api")).isEqualTo("https://backup.example.com/api");
		assertThat(ShownValues.of("5xy")).isEqualTo("5xy");
		assertThat(ShownValues.of(null)).isEqualTo("null");
	}

	@Test
	void whatLooksLikeACredentialIsRedactedAndOrdinaryValuesStay() {
		assertThat(ShownValues.of("Bearer s3cr3t4711")).isEqualTo("Bearer [redacted]");
		assertThat(ShownValues.of("password=s3cr3t4711")).isEqualTo("password=[redacted]");
		assertThat(ShownValues.of("sk-s3cr3t4711abcdefgh")).isEqualTo("[redacted]");
		assertThat(ShownValues.of("often")).isEqualTo("often");
		assertThat(ShownValues.of("X-Request-Id")).isEqualTo("X-Request-Id");
		assertThat(ShownValues.of("/error/type")).isEqualTo("/error/type");
	}

	private static Throwable start(String... settings) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> args = new ArrayList<>();
		for (String setting : settings) {
			args.add("--" + setting);
		}
		args.add("--test.upstream.inventory=http://127.0.0.1:9");
		args.add("--test.upstream.billing=http://127.0.0.1:9");
		return catchThrowable(() -> application.run(args.toArray(String[]::new)));
	}

	private static <T extends Throwable> T find(Throwable thrown, Class<T> type) {
		for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	private static List<String> messages(Throwable thrown) {
		List<String> messages = new ArrayList<>();
		for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
			messages.add(String.valueOf(cause));
		}
		return messages;
	}

}
