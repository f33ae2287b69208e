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

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import dev.triage.support.InventoryClient;
import dev.triage.support.RawServer;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Feign client whose URL carries user info ({@code http://user:password@host}) is said at startup, one WARN line
 * per client: Apache HttpClient 5 refuses to send such a request, so every call failed before the wire with
 * nothing said before. The line never shows the password; Triage does not refuse the URL (it is Spring Cloud
 * OpenFeign's setting).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class UrlWithUserInfoTests {

	private static final String WARNING = "has a URL with user info";

	static RawServer upstream;

	@Autowired
	InventoryClient inventory;

	@DynamicPropertySource
	static void upstreams(DynamicPropertyRegistry registry) {
		registry.add("test.upstream.inventory",
				() -> upstream.url().replace("http://", "http://alice:s3cr3t-pw@") + "/legacy");
		registry.add("test.upstream.billing", upstream::url);
	}

	@BeforeAll
	static void start() throws IOException {
		upstream = new RawServer();
		upstream.answer((out) -> RawServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
	}

	@AfterAll
	static void close() throws IOException {
		upstream.close();
	}

	@Test
	void aUrlWithUserInfoIsOneWarningAtStartupWithoutThePassword(CapturedOutput output) {
		int before = upstream.requests();

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).as("Apache HttpClient 5 refuses the request").isNotNull();
		assertThat(upstream.requests()).isEqualTo(before);
		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("WARN")
			.contains("Feign client 'inventory' (" + InventoryClient.class.getName() + ") has a URL with user info")
			.contains("http://***@127.0.0.1:")
			.contains("Apache HttpClient 5 refuses to send such a request")
			.contains("BasicAuthRequestInterceptor");
		assertThat(output).doesNotContain("s3cr3t-pw");
	}

	@Test
	void aUrlFromSpringCloudOpenFeignsPropertiesIsCheckedAndAnAtInAPathIsNotUserInfo(CapturedOutput output) {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("spring.cloud.openfeign.client.config.plain.url", "https://bob:pw-2@127.0.0.1:9")
			.withProperty("spring.cloud.openfeign.client.config.at.url", "http://127.0.0.1:9/users/@me?from=a@b");

		PrimaryUrls.warnOnUserInfo(List.of(new DeclaredClients.Context("plain", "plain", PlainApi.class.getName()),
				new DeclaredClients.Context("at", "at", PlainApi.class.getName())), environment,
				getClass().getClassLoader());

		assertThat(warnings(output).stream().filter((line) -> line.contains("'plain'"))).singleElement()
			.asString()
			.contains("https://***@127.0.0.1:9");
		assertThat(warnings(output)).noneMatch((line) -> line.contains("'at'"));
		assertThat(output).doesNotContain("pw-2");
	}

	private static List<String> warnings(CapturedOutput output) {
		return Arrays.stream(output.getAll().split("\\R")).filter((line) -> line.contains(WARNING)).toList();
	}

	@FeignClient(name = "plain")
	interface PlainApi {

	}

}
