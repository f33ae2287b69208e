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

package dev.triage.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class ErrorTypeExtractorTests {

	private final ErrorTypeExtractor extractor = new ErrorTypeExtractor(
			List.of("/error/type", "/type", "/error/code", "/code"), "triage.error-type-pointers");

	@Test
	void aStringCutByTheEndOfACappedBodyIsNoTypeButItsStartIsAMessagesStart() {
		// A 100 KB message cut by max-body-bytes: the log still shows its start (SPEC §7: "the start of the error
		// message"), while a type cut in the middle is never taken for a type (it is for decisions).
		ErrorTypeExtractor messages = new ErrorTypeExtractor(List.of("/error/message", "/message"), "messages");
		byte[] cut = ("{\"error\":{\"type\":\"gone\",\"message\":\"Item 42 was removed " + "x".repeat(500))
			.getBytes(StandardCharsets.UTF_8);

		assertThat(messages.extractStart(cut)).startsWith("Item 42 was removed xxx");
		assertThat(messages.extract(cut)).isNull();
		assertThat(new ErrorTypeExtractor(List.of("/error/type"), "types").extract("{\"error\":{\"type\":\"gon"
			.getBytes(StandardCharsets.UTF_8))).isNull();
		assertThat(messages.extractStart("{\"message\":\"whole\"}".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo("whole");
	}

	@Test
	void firstPointerThatLandsOnAStringWins() {
		assertThat(type("{\"error\":{\"type\":\"overloaded_error\",\"code\":\"x\"},\"type\":\"error\"}"))
			.isEqualTo("overloaded_error");
		assertThat(type("{\"type\":\"invalid_request_error\",\"code\":\"c\"}")).isEqualTo("invalid_request_error");
		assertThat(type("{\"error\":{\"code\":\"rate_limited\"}}")).isEqualTo("rate_limited");
		assertThat(type("  {\"code\":\"quota\"}")).isEqualTo("quota");
	}

	@Test
	void nonStringValuesAreSkipped() {
		assertThat(type("{\"error\":{\"type\":42},\"code\":\"fallback\"}")).isEqualTo("fallback");
		assertThat(type("{\"code\":503}")).isNull();
	}

	@Test
	void aTypeBeforeTheCutOfACappedOrBrokenOffBodyStillClassifies() {
		String big = "{\"type\":\"overloaded_error\",\"detail\":\"" + "x".repeat(100_000) + "\"}";
		byte[] capped = java.util.Arrays.copyOf(big.getBytes(java.nio.charset.StandardCharsets.UTF_8), 64 * 1024);
		assertThat(this.extractor.extract(capped)).isEqualTo("overloaded_error");
		assertThat(type("{\"error\":{\"code\":\"c\",\"type\":\"t\",\"message\":\"cut her"))
			.as("the best pointer found before the cut").isEqualTo("t");
		assertThat(type("{\"code\":\"c\",\"error\":{\"type\":\"t\"}}")).as("a better pointer later wins")
			.isEqualTo("t");
		assertThat(type("{\"deep\":{\"a\":{\"b\":{\"type\":\"no\"}}},\"type\":\"yes\"}")).isEqualTo("yes");
		assertThat(type("[{\"type\":\"in-array\"}]")).isNull();
	}

	@Test
	void aBodyThatStartsWithAUtf8ByteOrderMarkIsRead() {
		assertThat(type("\uFEFF{\"type\":\"invalid_request_error\"}")).isEqualTo("invalid_request_error");
		assertThat(type("\uFEFF<html>{\"type\":\"x\"}</html>")).as("not JSON after the mark").isNull();
	}

	@Test
	void theMessageIsNeverUsed() {
		assertThat(type("{\"error\":{\"message\":\"overloaded_error\"}}")).isNull();
	}

	@Test
	void nonJsonMalformedAndTruncatedBodiesHaveNoType() {
		assertThat(type("<html>502 Bad Gateway</html>")).isNull();
		assertThat(type("")).isNull();
		assertThat(type("{\"error\":{\"type\":\"overl")).isNull();
		assertThat(this.extractor.extract(null)).isNull();
	}

	@Test
	void malformedPointerIsRejectedNamingTheProperty() {
		assertThatThrownBy(() -> new ErrorTypeExtractor(List.of("/type", "error.type"), "triage.error-type-pointers"))
			.isInstanceOf(InvalidPolicyException.class)
			.hasMessageContaining("triage.error-type-pointers[1]")
			.hasMessageContaining("error.type");
	}

	private String type(String body) {
		return this.extractor.extract(body.getBytes(StandardCharsets.UTF_8));
	}

}
