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

package dev.triage.channel;

import dev.triage.breaker.UpstreamBreaker;
import dev.triage.overload.Pause;

/**
 * One way to reach an upstream: the client's own URL ({@code primary}) or a configured alternative, each with a
 * breaker and a pause of its own.
 *
 * @param name {@code primary} or the configured channel name
 * @param baseUrl the base URL that replaces the primary's, {@code null} for the primary itself
 * @param breaker the channel's breaker
 * @param pause the channel's pause
 */
public record Channel(String name, String baseUrl, UpstreamBreaker breaker, Pause pause) {

	/**
	 * Return whether a call could go to this channel now, without taking a breaker permit.
	 * @return whether it is neither paused nor behind an open breaker
	 */
	public boolean available() {
		return !this.pause.isPaused() && !this.breaker.isOpen();
	}

	/**
	 * Return a request URL moved to this channel: the primary's base URL (scheme, host, port, base path) is
	 * replaced by this channel's.
	 * @param url the request URL built for the primary
	 * @param primaryBase the primary's base URL
	 * @return the URL on this channel
	 */
	public String rewrite(String url, String primaryBase) {
		if (this.baseUrl == null || primaryBase == null || !url.startsWith(primaryBase)) {
			return url;
		}
		return this.baseUrl + url.substring(primaryBase.length());
	}

}
