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

package dev.triage.restclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.TransportFailure;
import dev.triage.TriageHttpServices;
import dev.triage.UpstreamTransportException;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.client.RestClient;

/**
 * A request that names no host (an HTTP service client without a base URL, as a Boot 4 group gets without Spring
 * Boot's RestClient starter): the HTTP client fails before sending anything, so the exception and the call log say
 * 0 attempts (SPEC §6: "{@code attempts()} (0 when nothing reached the wire)"), and no WARN blames a request
 * factory Triage could not check.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "test.upstream.inventory=http://127.0.0.1:9", "test.upstream.billing=http://127.0.0.1:9" })
@ExtendWith(OutputCaptureExtension.class)
class RequestWithoutHostTests {

	@Autowired
	TriageHttpServices triage;

	@Test
	void aRequestWithoutAHostReachesNoWireAndSaysZeroAttempts(CapturedOutput output) {
		InventoryClient inventory = this.triage.createClient("no-host", InventoryClient.class,
				RestClient.builder().build());

		Throwable thrown = catchThrowable(() -> inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamTransportException.class);
		UpstreamTransportException failure = (UpstreamTransportException) thrown;
		assertThat(failure.failure()).isEqualTo(TransportFailure.IO_ERROR);
		assertThat(failure.attempts()).as("nothing reached the wire").isZero();
		assertThat(output.getOut()).contains("client=no-host").contains("attempts=0");
		assertThat(output.getOut()).doesNotContain("without Triage's attempt bound");
	}

}
