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

package dev.triage.sample.fleet;

import java.util.ArrayList;
import java.util.List;

import dev.triage.engine.ManagedClients;
import dev.triage.fleet.FleetStatus;
import dev.triage.overload.Pause;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One more instance of a service for the tour's fleet scene: an application context of its own in the demo's
 * JVM (no web server), with its own Feign clients and Triage, configured by {@code fleet-instance.yml} and
 * sharing pauses and rate limits with the other instances through one Redis, as separate processes would.
 * <p>
 * Not a {@code @Configuration}: the sample application's component scan leaves it alone.
 */
@EnableAutoConfiguration
@EnableFeignClients(clients = { FleetSmsClient.class, FleetQuotaClient.class })
public class FleetInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private FleetInstance(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * Start an instance.
	 * @param redisPort the port of the Redis on 127.0.0.1
	 * @param upstreamUrl the base URL of the upstream the clients call
	 * @return the running instance
	 */
	public static FleetInstance start(int redisPort, String upstreamUrl) {
		List<String> args = new ArrayList<>(List.of("--spring.config.name=fleet-instance",
				"--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort,
				"--demo.fleet.upstream-url=" + upstreamUrl));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(FleetInstance.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.registerShutdownHook(false)
			.run(args.toArray(String[]::new));
		return new FleetInstance(context);
	}

	public FleetSmsClient sms() {
		return this.context.getBean(FleetSmsClient.class);
	}

	public FleetQuotaClient quota() {
		return this.context.getBean(FleetQuotaClient.class);
	}

	/**
	 * Return the pause of a client's primary channel in this instance.
	 * @param client the client
	 * @return its pause
	 */
	public Pause pause(String client) {
		return this.context.getBean(ManagedClients.class).get(client).channels().primary().pause();
	}

	/**
	 * Return whether this instance's fleet store answers.
	 * @return whether Redis is connected
	 */
	public boolean connected() {
		return this.context.getBeanProvider(FleetStatus.class).getIfAvailable(() -> FleetStatus.LOCAL).connected();
	}

	/**
	 * Return a setting of this instance.
	 * @param name the property
	 * @return its value, {@code null} when unset
	 */
	public String setting(String name) {
		return this.context.getEnvironment().getProperty(name);
	}

	/**
	 * Return a setting of this instance, converted as Spring Boot binds it ({@code 10s} to a duration).
	 * @param <T> the type
	 * @param name the property
	 * @param type the type
	 * @return its value, {@code null} when unset
	 */
	public <T> T setting(String name, Class<T> type) {
		return this.context.getEnvironment().getProperty(name, type);
	}

	/**
	 * Return the state of a client's breaker in this instance.
	 * @param client the client
	 * @return e.g. {@code CLOSED}
	 */
	public String breaker(String client) {
		return this.context.getBean(ManagedClients.class).get(client).breaker().state();
	}

	@Override
	public void close() {
		this.context.close();
	}

}
