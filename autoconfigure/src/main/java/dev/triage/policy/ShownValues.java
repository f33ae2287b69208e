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

package dev.triage.policy;

import java.time.Duration;

/**
 * How a setting's value may appear in a startup failure, a log line or an exception message: never with a
 * secret. A value that looks like a URL loses its user info, query and fragment (where credentials and tokens
 * live: {@code http://user:secret@host/base?token=secret} is shown as {@code http://***@host/base?***}), whether
 * or not it parses as a URL; what looks like a credential ({@code Bearer …}, {@code password=…}, {@code sk-…})
 * is {@link Credentials#redact redacted}.
 */
public final class ShownValues {

	/** What stands for a value that is not shown at all. */
	public static final String HIDDEN = "(not shown: it may hold a secret)";

	private static final String MASK = "***";

	private ShownValues() {
	}

	/**
	 * Return a value as it may be shown.
	 * @param value the value as bound, may be {@code null}
	 * @return its text without user info, query or fragment
	 */
	public static String of(Object value) {
		if (value instanceof Duration duration) {
			// Bound durations print as PT-0.2S; show them the way they are usually written.
			return duration(duration);
		}
		return Credentials.redact(redact(String.valueOf(value)));
	}

	/**
	 * Write a duration in the largest unit that keeps it exact, as Spring Boot's simple duration style reads it:
	 * {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}, {@code 1d}, {@code -1s}; below a millisecond {@code us}
	 * or {@code ns}.
	 * @param duration the duration
	 * @return the text
	 */
	public static String duration(Duration duration) {
		if (duration.getNano() % 1_000_000 != 0) {
			long nanos = duration.toNanos();
			return (nanos % 1_000 == 0) ? (nanos / 1_000) + "us" : nanos + "ns";
		}
		long millis = duration.toMillis();
		if (millis == 0) {
			return "0s";
		}
		long[] sizes = { 86_400_000, 3_600_000, 60_000, 1_000 };
		String[] units = { "d", "h", "m", "s" };
		for (int i = 0; i < sizes.length; i++) {
			if (millis % sizes[i] == 0) {
				return (millis / sizes[i]) + units[i];
			}
		}
		return millis + "ms";
	}

	private static String redact(String text) {
		String shown = text;
		int cut = indexOfAny(shown, '?', '#');
		if (cut >= 0) {
			shown = shown.substring(0, cut + 1) + MASK;
		}
		int scheme = shown.indexOf("://");
		int start = (scheme >= 0) ? scheme + 3 : 0;
		int end = shown.indexOf('/', start);
		if (end < 0) {
			end = shown.length();
		}
		int at = shown.lastIndexOf('@', end - 1);
		if (at >= start) {
			shown = shown.substring(0, start) + MASK + shown.substring(at);
		}
		return shown;
	}

	private static int indexOfAny(String text, char first, char second) {
		int a = text.indexOf(first);
		int b = text.indexOf(second);
		if (a < 0) {
			return b;
		}
		return (b < 0) ? a : Math.min(a, b);
	}

}
