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
package dev.triage.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What the call log keeps of an error message: one line, at most 200 characters, no credentials.
 */
class ErrorMessagesTests {

	@Test
	void credentialsTokensAndAddressesAreRedacted() {
		String sanitized = ErrorMessages.sanitize("denied: Authorization: Bearer abc.def.ghi; password=hunter2 "
				+ "\"api_key\": \"k-123\" X-Api-Key: xyz token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl "
				+ "key sk-proj-abcdefgh12345678 card 4111 1111 1111 1111 opaque AbCdEf0123456789GhIjKl0123 "
				+ "from jane@example.com");
		assertThat(sanitized).doesNotContain("abc.def", "hunter2", "k-123", "xyz", "eyJ", "sk-proj", "4111", "AbCdEf",
				"jane@");
		assertThat(sanitized).startsWith("denied: Authorization: [redacted]");
		assertThat(ErrorMessages.sanitize("retry at https://user:pw@api.example/v1?session=s1#frag"))
			.isEqualTo("retry at https://api.example/v1?session=***");
	}

	@Test
	void aCredentialAfterASchemeWordIsRedactedNotTheSchemeWord() {
		assertThat(ErrorMessages.sanitize("bad token Bearer ECHOSECRET10 rejected")).doesNotContain("ECHOSECRET10")
			.isEqualTo("bad token Bearer [redacted] rejected");
		assertThat(ErrorMessages.sanitize("token Basic dXNlcjpwdw== expired")).doesNotContain("dXNlcjpwdw");
	}

	@Test
	void aMessageIsOneLineOfAtMostTwoHundredCharacters() {
		String sanitized = ErrorMessages.sanitize("first\r\nsecond\u2028third\t\"quoted\" " + "word ".repeat(100));
		assertThat(sanitized).startsWith("first second third 'quoted' word").hasSize(ErrorMessages.MAX_LENGTH)
			.doesNotContain("\n", "\r", "\"");
	}

	@Test
	void ordinaryWordsStay() {
		assertThat(ErrorMessages.sanitize("Item 42 not found in warehouse EU-3")).isEqualTo("Item 42 not found in warehouse EU-3");
		assertThat(ErrorMessages.sanitize(" \r\n ")).isNull();
	}

}
