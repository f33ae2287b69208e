package dev.triage.feign;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import feign.Request;

/**
 * Sanitizing helpers: request lines without secrets, headers with sensitive values redacted.
 */
public final class Requests {

	static final String REDACTED = "[redacted]";

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
		if (query < 0) {
			return result;
		}
		StringBuilder sanitized = new StringBuilder(result.substring(0, query + 1));
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

	private static int indexOfAny(String text, int from, char a, char b) {
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == a || c == b) {
				return i;
			}
		}
		return -1;
	}

	static String requestLine(Request request) {
		if (request == null) {
			return "";
		}
		return request.httpMethod().name() + " " + sanitizeUrl(request.url());
	}

	static Map<String, List<String>> redact(Map<String, Collection<String>> headers, Set<String> sensitive) {
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

	static String firstHeader(Map<String, ? extends Collection<String>> headers, String name) {
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
