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

package dev.triage.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrPerCallTests {

	@Test
	void aSamplingPeriodIsReadInItsOwnUnit() {
		assertThat(JfrPerCall.micros("1 ms")).isEqualTo(1000.0);
		assertThat(JfrPerCall.micros("20 ms")).isEqualTo(20_000.0);
		assertThat(JfrPerCall.micros("1 s")).isEqualTo(1_000_000.0);
		assertThat(JfrPerCall.micros("500 us")).isEqualTo(500.0);
		assertThat(JfrPerCall.micros("250000 ns")).isEqualTo(250.0);
	}

}
