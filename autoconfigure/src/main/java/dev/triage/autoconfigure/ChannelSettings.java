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

import java.net.URI;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import dev.triage.OriginalResponse;
import dev.triage.policy.InvalidPolicyException;

/**
 * Checks {@code triage.clients.<name>.channels} at startup: absolute http(s) URLs without user info, query or
 * fragment, and names whose breakers ({@code <client>-<channel>}) clash with no other breaker. A refused URL is
 * shown without its user info and query (the message names the channel, never the secret).
 */
final class ChannelSettings {

	private ChannelSettings() {
	}

	static String breakerName(String client, String channel) {
		return client + "-" + channel;
	}

	/**
	 * Return a channel's base URL as requests are sent to it: without a trailing slash, and in its ASCII form
	 * ({@code /café} as {@code /caf%C3%A9}; what is already escaped stays as written), as an HTTP request line
	 * must carry it.
	 */
	static String baseUrl(String url) {
		String trimmed = url.trim();
		try {
			trimmed = URI.create(trimmed).toASCIIString();
		}
		catch (IllegalArgumentException ex) {
			// Refused at validation: not a base URL any request is sent to.
		}
		return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
	}

	static void validate(TriageProperties properties, Set<String> feignClients) {
		Set<String> breakers = new HashSet<>(feignClients);
		properties.getClients().forEach((client, settings) -> settings.getChannels().forEach((channel, url) -> {
			String property = "triage.clients." + client + ".channels." + channel;
			if (OriginalResponse.PRIMARY.equals(channel)) {
				throw new InvalidPolicyException(property, url,
						"a channel name other than 'primary', which is the client's own URL");
			}
			URI uri = absoluteHttp(url);
			if (uri == null) {
				throw new InvalidPolicyException(property, url,
						"an absolute http or https base URL, e.g. https://backup.example.com/api");
			}
			if (uri.getRawUserInfo() != null) {
				// A base URL is shown in the call log and the actuator endpoint: credentials have no place in it.
				throw new InvalidPolicyException(property, url, "a base URL without user info (send credentials in a "
						+ "header, e.g. with a request interceptor), e.g. https://backup.example.com/api");
			}
			if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
				// A channel takes the place of the primary's scheme, host, port and base path; the request keeps
				// its own query.
				throw new InvalidPolicyException(property, url, "a base URL without a query or fragment (a channel "
						+ "replaces scheme, host, port and base path; each request keeps its own query), "
						+ "e.g. https://backup.example.com/api");
			}
			String breaker = breakerName(client, channel);
			if (!breakers.add(breaker)) {
				throw new InvalidPolicyException(property, url, "a channel name whose breaker name '" + breaker
						+ "' is not already the name of a client or of another channel's breaker");
			}
		}));
	}

	/**
	 * Parse a channel URL: an absolute http or https URL with a host, else {@code null}.
	 */
	private static URI absoluteHttp(String url) {
		if (url == null) {
			return null;
		}
		try {
			URI uri = URI.create(url.trim());
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			return ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) ? uri : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
