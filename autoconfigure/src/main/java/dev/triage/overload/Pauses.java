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

package dev.triage.overload;

import java.time.Clock;

/**
 * Creates the pause of each channel of each client: a plain local {@link Pause} unless the fleet shares
 * pauses (SPEC §13).
 */
@FunctionalInterface
public interface Pauses {

	/** Every pause is local to this instance. */
	Pauses LOCAL = (client, channel, clock) -> new Pause(clock);

	/**
	 * Create the pause of one channel.
	 * @param client the Feign client name
	 * @param channel the channel name, {@code primary} for the client's own URL
	 * @param clock the wall clock
	 * @return the pause
	 */
	Pause create(String client, String channel, Clock clock);

}
