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

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.triage.engine.ManagedClients;
import dev.triage.overload.Pause;
import dev.triage.support.InventoryClient;
import dev.triage.support.TestApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Instances of one application in one JVM, each an application context of its own with its own Feign
 * clients, all calling one loopback upstream and sharing one Redis under a key prefix of their own.
 */
final class FleetOfInstances implements AutoCloseable {

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	private final List<String> settings = new ArrayList<>();

	private final String prefix = "triage:test-" + UUID.randomUUID() + ":";

	FleetOfInstances(String upstream, int redisPort, String... settings) {
		this.settings.addAll(List.of("spring.main.banner-mode=off", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redisPort, "triage.fleet.key-prefix=" + this.prefix,
				"test.upstream.inventory=" + upstream, "test.upstream.billing=" + upstream));
		this.settings.addAll(List.of(settings));
	}

	/**
	 * Start one more instance.
	 */
	ConfigurableApplicationContext start(String... more) {
		List<String> args = new ArrayList<>();
		this.settings.forEach((setting) -> args.add("--" + setting));
		for (String setting : more) {
			args.add("--" + setting);
		}
		ConfigurableApplicationContext instance = new SpringApplicationBuilder(TestApplication.class)
			.web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new));
		this.instances.add(instance);
		return instance;
	}

	String prefix() {
		return this.prefix;
	}

	static InventoryClient inventory(ConfigurableApplicationContext instance) {
		return instance.getBean(InventoryClient.class);
	}

	static Pause pause(ConfigurableApplicationContext instance) {
		return instance.getBean(ManagedClients.class).find("inventory").channels().primary().pause();
	}

	static FleetStatus status(ConfigurableApplicationContext instance) {
		return instance.getBeanProvider(FleetStatus.class).getIfAvailable(() -> FleetStatus.LOCAL);
	}

	@Override
	public void close() {
		this.instances.forEach(ConfigurableApplicationContext::close);
	}

}
