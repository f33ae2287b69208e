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

package dev.triage.reload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.triage.support.LocalHttp;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A token pasted under the wrong key, then {@code POST /actuator/refresh} (SPEC §12, and "Secrets never reach
 * logs"): Triage refuses the change in one ERROR line that names the property without its value; neither Spring
 * Cloud's rebinding nor the layering of Resilience4j's breaker settings fails the refresh on it and prints the
 * value whole (the refresh answered 500, and the servlet container logged the exception with the token).
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		args = "--spring.config.import=optional:file:./target/reload-tests/bad-value.properties",
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=refresh,triage" })
@ExtendWith(OutputCaptureExtension.class)
class RefreshWithABadValueTests extends LoopbackUpstream {

	private static final Path FILE = Path.of("target", "reload-tests", "bad-value.properties");

	@Value("${local.server.port}")
	int port;

	@BeforeAll
	static void startingFile() throws IOException {
		Files.createDirectories(FILE.getParent());
		Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=3\n");
	}

	@AfterAll
	static void removeFile() throws IOException {
		Files.deleteIfExists(FILE);
	}

	@Test
	void aValueThatDoesNotConvertIsRefusedWithoutItsSecretReachingTheLogs(CapturedOutput output) throws Exception {
		Files.writeString(FILE, "triage.clients.inventory.policies.503.max-attempts=3\n"
				+ "triage.clients.inventory.deadline=Bearer s3cr3tReloadToken\n");

		LocalHttp.Answer refreshed = LocalHttp.post(this.port, "/actuator/refresh");

		assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
		LocalHttp.Answer triage = LocalHttp.get(this.port, "/actuator/triage");
		assertThat(new ObjectMapper().readTree(triage.body()).at("/config/lastRejected/reason").asText())
			.contains("triage.clients.inventory.deadline");
		assertThat(output.getAll()).contains("triage.clients.inventory.deadline").doesNotContain("s3cr3tReloadToken");
	}

}
