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

import java.time.Duration;
import java.util.Collection;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.cloud.openfeign.FeignClientProperties;

/**
 * Seed 000's timeout layering: "客户端到代理超时 > 代理到后端超时 > 后端服务内部关键依赖超时". The call's deadline is the
 * outermost budget; an attempt's read timeout belongs inside it. A read timeout longer than the deadline is never
 * the one that fires (the deadline cuts the attempt first, and no retry after it fits): said once at startup, one
 * line per client, naming both values and the property to change.
 */
final class TimeoutLayering {

	private static final Log logger = LogFactory.getLog(TimeoutLayering.class);

	/** Feign's own read timeout when nothing is configured ({@code feign.Request.Options}). */
	static final Duration FEIGN_DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);

	private static final String CONFIG = "spring.cloud.openfeign.client.config.";

	private TimeoutLayering() {
	}

	/**
	 * Warn for every managed client whose read timeout exceeds its own deadline.
	 * @param clients the contexts of the managed Feign clients (a read timeout is set per context, a deadline per
	 * client name)
	 * @param properties Triage's properties (the deadlines)
	 * @param feign Spring Cloud OpenFeign's client properties, {@code null} when absent
	 */
	static void warnWhereReadTimeoutExceedsDeadline(Collection<DeclaredClients.Context> clients,
			TriageProperties properties, FeignClientProperties feign) {
		clients.forEach((context) -> {
			String name = context.name();
			String contextId = context.contextId();
			TriageProperties.Client client = properties.getClients().get(name);
			Duration deadline = (client != null) ? client.getDeadline() : null;
			if (deadline == null) {
				return;
			}
			ReadTimeout read = readTimeout(contextId, feign);
			if (read.value().compareTo(deadline) > 0) {
				logger.warn("Triage: client '" + name + "'"
						+ (contextId.equals(name) ? "" : " (contextId '" + contextId + "')") + " has a read timeout of " + format(read.value()) + " ("
						+ read.source() + ") longer than its deadline of " + format(deadline) + " (triage.clients." + name
						+ ".deadline): the deadline cuts a slow attempt first, so that read timeout never fires and no "
						+ "retry after a timeout fits. Set " + CONFIG + contextId + ".read-timeout below the deadline (about "
						+ format(deadline.dividedBy(2)) + " leaves room for one retry); keep the layers: client deadline > "
						+ "gateway timeout > backend timeout.");
			}
		});
	}

	static ReadTimeout readTimeout(String name, FeignClientProperties feign) {
		if (feign != null) {
			FeignClientProperties.FeignClientConfiguration own = feign.getConfig().get(name);
			if (own != null && own.getReadTimeout() != null) {
				return new ReadTimeout(Duration.ofMillis(own.getReadTimeout()), CONFIG + name + ".read-timeout");
			}
			String defaultName = feign.getDefaultConfig();
			FeignClientProperties.FeignClientConfiguration defaults = feign.getConfig().get(defaultName);
			if (defaults != null && defaults.getReadTimeout() != null) {
				return new ReadTimeout(Duration.ofMillis(defaults.getReadTimeout()),
						CONFIG + defaultName + ".read-timeout");
			}
		}
		return new ReadTimeout(FEIGN_DEFAULT_READ_TIMEOUT, "Feign's default: no read-timeout configured");
	}

	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	record ReadTimeout(Duration value, String source) {
	}

}
