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

import java.util.List;

/**
 * The channels of one client, in order: {@code primary} first, then the configured ones in YAML order. A new
 * call starts on the first channel that is neither paused nor behind an open breaker, so it comes back to
 * {@code primary} as soon as its breaker lets calls through again (half-open probes included).
 */
public final class Channels {

	private final List<Channel> all;

	/**
	 * Create the channels of a client.
	 * @param all the channels, primary first
	 */
	public Channels(List<Channel> all) {
		if (all.isEmpty()) {
			throw new IllegalArgumentException("a client has at least its primary channel");
		}
		this.all = List.copyOf(all);
	}

	/**
	 * Return the channel of the client's own URL.
	 * @return the primary
	 */
	public Channel primary() {
		return this.all.get(0);
	}

	/**
	 * Return a channel by position.
	 * @param index the position, 0 for the primary
	 * @return the channel
	 */
	public Channel get(int index) {
		return this.all.get(index);
	}

	/**
	 * Return every channel, primary first.
	 * @return the channels
	 */
	public List<Channel> all() {
		return this.all;
	}

	/**
	 * Return whether the client has alternatives to its own URL.
	 * @return whether more than the primary is configured
	 */
	public boolean hasAlternatives() {
		return this.all.size() > 1;
	}

	/**
	 * Return the first channel after a failed one that could take a call now.
	 * @param failed the position of the channel that failed
	 * @return its position, or -1 when no later channel is available
	 */
	public int nextAvailableAfter(int failed) {
		for (int i = failed + 1; i < this.all.size(); i++) {
			if (this.all.get(i).available()) {
				return i;
			}
		}
		return -1;
	}

}
