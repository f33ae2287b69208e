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

package dev.triage.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.support.TestApplication;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A bad fleet setting fails startup with a message naming the property (no Redis needed).
 */
@ExtendWith(OutputCaptureExtension.class)
class FleetSettingsTests {

	@ParameterizedTest(name = "{0}={1} fails startup with a message naming it")
	@CsvSource(delimiter = '|', value = { "triage.fleet.store|memcached|triage.fleet.store",
			"triage.fleet.timeout|0ms|triage.fleet.timeout", "triage.fleet.instances|0|triage.fleet.instances",
			"triage.fleet.stor|redis|triage.fleet.store",
			"triage.clients.inventory.fleet-rate-limit.limit-for-period|0|triage.clients.inventory.fleet-rate-limit.limit-for-period",
			"triage.clients.inventory.fleet-rate-limit.lease|0|triage.clients.inventory.fleet-rate-limit.lease",
			"triage.clients.inventory.fleet-rate-limit.limit-refresh-period|0s|triage.clients.inventory.fleet-rate-limit.limit-refresh-period" })
	void startupFailsWithAReadableMessage(String property, String value, String named, CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable thrown = catchThrowable(() -> application.run("--" + property + "=" + value,
				"--triage.clients.inventory.fleet-rate-limit.limit-for-period=10",
				"--test.upstream.inventory=http://127.0.0.1:9", "--test.upstream.billing=http://127.0.0.1:9",
				"--" + property + "=" + value));

		assertThat(thrown).isNotNull();
		assertThat(output).contains("APPLICATION FAILED TO START").contains(named);
	}

}
