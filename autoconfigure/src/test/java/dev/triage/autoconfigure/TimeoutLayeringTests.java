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

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientSpecification;

/**
 * Seed 000's timeout layering (client > gateway > backend): a client whose read timeout is longer than its own
 * deadline gets one WARN line at startup naming both values and what to change; a client whose timeouts are
 * layered, or that has no deadline, gets none.
 */
@ExtendWith(OutputCaptureExtension.class)
class TimeoutLayeringTests {

	private static final String WARNING = "longer than its deadline";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TriageAutoConfiguration.class, FeignAutoConfiguration.class))
		.withBean("inventorySpec", FeignClientSpecification.class,
				() -> new FeignClientSpecification("inventory", null, new Class<?>[0]))
		.withBean("billingSpec", FeignClientSpecification.class,
				() -> new FeignClientSpecification("billing", null, new Class<?>[0]));

	@Test
	void aReadTimeoutLongerThanTheDeadlineIsOneWarningNamingBothValuesAndTheFix(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("triage.clients.inventory.deadline=3s",
					"spring.cloud.openfeign.client.config.inventory.read-timeout=5000")
			.run((context) -> assertThat(context).hasNotFailed());

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("WARN")
			.contains("client 'inventory' has a read timeout of 5s")
			.contains("(spring.cloud.openfeign.client.config.inventory.read-timeout)")
			.contains("deadline of 3s (triage.clients.inventory.deadline)")
			.contains("Set spring.cloud.openfeign.client.config.inventory.read-timeout below the deadline")
			.contains("client deadline > gateway timeout > backend timeout");
	}

	@Test
	void withoutAReadTimeoutFeignsSixtySecondsAreComparedAndSaidToBeTheDefault(CapturedOutput output) {
		this.contextRunner.withPropertyValues("triage.clients.billing.deadline=2500ms")
			.run((context) -> assertThat(context).hasNotFailed());

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("client 'billing' has a read timeout of 60s (Feign's default: no read-timeout configured)")
			.contains("deadline of 2500ms");
	}

	@Test
	void theDefaultConfigsReadTimeoutCountsForEveryClientWithoutItsOwn(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("triage.clients.inventory.deadline=1s", "triage.clients.billing.deadline=1s",
					"spring.cloud.openfeign.client.config.default.read-timeout=2000",
					"spring.cloud.openfeign.client.config.billing.read-timeout=400")
			.run((context) -> assertThat(context).hasNotFailed());

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("client 'inventory' has a read timeout of 2s (spring.cloud.openfeign.client.config.default.read-timeout)");
	}

	@Test
	void layeredTimeoutsOrNoDeadlineAreNotWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("triage.clients.inventory.deadline=10s",
					"spring.cloud.openfeign.client.config.inventory.read-timeout=2000",
					"spring.cloud.openfeign.client.config.billing.read-timeout=90000")
			.run((context) -> assertThat(context).hasNotFailed());

		assertThat(warnings(output)).isEmpty();
	}

	@Test
	void aDisabledClientIsNotWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("triage.clients.inventory.deadline=1s", "triage.clients.inventory.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());

		assertThat(warnings(output)).isEmpty();
	}

	@Test
	void aContextIdsReadTimeoutIsComparedWithTheDeadlineOfItsClientsName(CapturedOutput output) {
		TriageProperties properties = new TriageProperties();
		TriageProperties.Client stock = new TriageProperties.Client();
		stock.setDeadline(Duration.ofSeconds(3));
		properties.getClients().put("stock", stock);
		FeignClientProperties feign = new FeignClientProperties();
		FeignClientProperties.FeignClientConfiguration admin = new FeignClientProperties.FeignClientConfiguration();
		admin.setReadTimeout(5000);
		feign.getConfig().put("stockAdmin", admin);

		TimeoutLayering.warnWhereReadTimeoutExceedsDeadline(
				List.of(new DeclaredClients.Context("stockAdmin", "stock", null)), properties, feign);

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("client 'stock' (contextId 'stockAdmin') has a read timeout of 5s")
			.contains("deadline of 3s (triage.clients.stock.deadline)")
			.contains("Set spring.cloud.openfeign.client.config.stockAdmin.read-timeout below the deadline");
	}

	private static List<String> warnings(CapturedOutput output) {
		return Arrays.stream(output.getOut().split("\\R")).filter((line) -> line.contains(WARNING)).toList();
	}

}
