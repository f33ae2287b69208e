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

package dev.triage.engine;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.triage.policy.Credentials;

/**
 * Sanitizing helpers: request lines without secrets, headers with sensitive values redacted.
 */
public final class Requests {

	/** What a sensitive value is replaced with. */
	public static final String REDACTED = Credentials.REDACTED;

	private Requests() {
	}

	/**
	 * Return the URL without user info and with every query value masked.
	 * @param url the URL
	 * @return the sanitized URL
	 */
	public static String sanitizeUrl(String url) {
		if (url == null) {
			return "";
		}
		String result = url;
		int fragment = result.indexOf('#');
		if (fragment >= 0) {
			result = result.substring(0, fragment);
		}
		int scheme = result.indexOf("://");
		if (scheme >= 0) {
			int hostStart = scheme + 3;
			int pathStart = indexOfAny(result, hostStart, '/', '?');
			int at = result.lastIndexOf('@', (pathStart >= 0) ? pathStart : result.length() - 1);
			if (at >= hostStart) {
				result = result.substring(0, hostStart) + result.substring(at + 1);
			}
		}
		int query = result.indexOf('?');
		String path = maskPathParameters((query < 0) ? result : result.substring(0, query));
		if (query < 0) {
			return path;
		}
		StringBuilder sanitized = new StringBuilder(path).append('?');
		String[] pairs = result.substring(query + 1).split("&", -1);
		for (int i = 0; i < pairs.length; i++) {
			if (i > 0) {
				sanitized.append('&');
			}
			int eq = pairs[i].indexOf('=');
			sanitized.append((eq >= 0) ? pairs[i].substring(0, eq) : pairs[i]).append("=***");
		}
		return sanitized.toString();
	}

	/**
	 * Mask the values of path parameters ({@code /cart;jsessionid=ABC} becomes {@code /cart;jsessionid=***}):
	 * session ids and tokens travel there too.
	 */
	private static String maskPathParameters(String url) {
		int scheme = url.indexOf("://");
		int pathStart = url.indexOf('/', (scheme >= 0) ? scheme + 3 : 0);
		if (pathStart < 0 || url.indexOf(';', pathStart) < 0) {
			return url;
		}
		StringBuilder masked = new StringBuilder(url.length()).append(url, 0, pathStart);
		boolean inValue = false;
		for (int i = pathStart; i < url.length(); i++) {
			char c = url.charAt(i);
			if (c == '/' || c == ';') {
				inValue = false;
				masked.append(c);
			}
			else if (c == '=' && !inValue && lastSeparator(url, i) == ';') {
				inValue = true;
				masked.append("=***");
			}
			else if (!inValue) {
				masked.append(c);
			}
		}
		return masked.toString();
	}

	private static char lastSeparator(String url, int before) {
		for (int i = before - 1; i >= 0; i--) {
			char c = url.charAt(i);
			if (c == '/' || c == ';') {
				return c;
			}
		}
		return 0;
	}

	private static int indexOfAny(String text, int from, char a, char b) {
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == a || c == b) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Return the sanitized request line.
	 * @param method the HTTP method
	 * @param url the URL
	 * @return the method and the sanitized URL
	 */
	public static String requestLine(String method, String url) {
		return method + " " + sanitizeUrl(url);
	}

	/**
	 * Return a copy of the headers, names case-insensitive, sensitive values redacted.
	 * @param headers the headers
	 * @param sensitive lower-case names of sensitive headers
	 * @return the copy
	 */
	public static Map<String, List<String>> redact(Map<String, ? extends Collection<String>> headers, Set<String> sensitive) {
		Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		if (headers == null) {
			return copy;
		}
		headers.forEach((name, values) -> {
			if (name != null) {
				boolean secret = sensitive.contains(name.toLowerCase(Locale.ROOT));
				copy.put(name, secret ? List.of(REDACTED) : List.copyOf(values));
			}
		});
		return copy;
	}

	/**
	 * Return the first value of a header, {@code null} when absent.
	 * @param headers the headers
	 * @param name the name, matched without case
	 * @return the value
	 */
	public static String firstHeader(Map<String, ? extends Collection<String>> headers, String name) {
		if (headers == null) {
			return null;
		}
		for (Map.Entry<String, ? extends Collection<String>> entry : headers.entrySet()) {
			if (name.equalsIgnoreCase(entry.getKey()) && entry.getValue() != null && !entry.getValue().isEmpty()) {
				return entry.getValue().iterator().next();
			}
		}
		return null;
	}

}
