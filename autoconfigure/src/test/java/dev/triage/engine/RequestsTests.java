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

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class RequestsTests {

	@Test
	void queryValuesUserInfoAndFragmentsNeverSurvive() {
		assertThat(Requests.sanitizeUrl("http://127.0.0.1:8080/items/42")).isEqualTo("http://127.0.0.1:8080/items/42");
		assertThat(Requests.sanitizeUrl("http://127.0.0.1/search?q=secret&page=2"))
			.isEqualTo("http://127.0.0.1/search?q=***&page=***");
		assertThat(Requests.sanitizeUrl("http://user:pass@127.0.0.1/x?token")).isEqualTo("http://127.0.0.1/x?token=***");
		assertThat(Requests.sanitizeUrl("http://127.0.0.1/x#frag?a=b")).isEqualTo("http://127.0.0.1/x");
		assertThat(Requests.sanitizeUrl(null)).isEmpty();
		assertThat(Requests.sanitizeUrl("http://127.0.0.1/p;jsessionid=SECRET?x=1"))
			.isEqualTo("http://127.0.0.1/p;jsessionid=***?x=***");
		assertThat(Requests.sanitizeUrl("http://127.0.0.1/a;v=1;token=T/b;k=z/c=d"))
			.isEqualTo("http://127.0.0.1/a;v=***;token=***/b;k=***/c=d");
		assertThat(Requests.sanitizeUrl("http://127.0.0.1/p;flag")).isEqualTo("http://127.0.0.1/p;flag");
	}

	@Test
	void sensitiveHeadersAreRedactedCaseInsensitively() {
		Map<String, Collection<String>> headers = new TreeMap<>();
		headers.put("Set-Cookie", List.of("a=1", "b=2"));
		headers.put("X-API-KEY", List.of("k"));
		headers.put("Content-Type", List.of("application/json"));

		Map<String, List<String>> redacted = Requests.redact(headers, Set.of("set-cookie", "x-api-key"));

		assertThat(redacted.get("set-cookie")).containsExactly("[redacted]");
		assertThat(redacted.get("x-api-key")).containsExactly("[redacted]");
		assertThat(redacted.get("content-type")).containsExactly("application/json");
	}

}
