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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Parses a {@code Retry-After} header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A malformed, negative
 * or past value yields empty, so the caller falls back to its backoff. A well-formed value longer than a year
 * (up to {@code 9999999999999999} seconds or a date in year 9999) is not an error: it is simply longer than any
 * {@code retry-after-max}, and yields {@link #BEYOND_LIMIT} so that no retry is made.
 */
public final class RetryAfter {

	/** Longest delay represented as itself. */
	public static final Duration LIMIT = Duration.ofDays(365);

	/** What a well-formed value longer than {@link #LIMIT} parses to: never waited for, never retried. */
	public static final Duration BEYOND_LIMIT = LIMIT.plusSeconds(1);

	private static final long MAX_SECONDS = LIMIT.toSeconds();

	/** The obsolete asctime form (RFC 9110 §5.6.7). */
	private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder().appendPattern("EEE MMM")
		.appendLiteral(' ')
		.optionalStart()
		.appendLiteral(' ')
		.optionalEnd()
		.appendPattern("d HH:mm:ss yyyy")
		.toFormatter(Locale.US)
		.withZone(ZoneOffset.UTC);

	private RetryAfter() {
	}

	/**
	 * Return whether a parsed delay stands for a value too long to wait for.
	 * @param delay a parsed delay
	 * @return whether it is beyond the limit
	 */
	public static boolean isBeyondLimit(Duration delay) {
		return delay.compareTo(LIMIT) > 0;
	}

	/**
	 * Parse a header value.
	 * @param value the header value, may be {@code null}
	 * @param clock the clock HTTP-dates are measured against
	 * @return the delay, or empty when absent or invalid
	 */
	public static Optional<Duration> parse(String value, Clock clock) {
		if (value == null) {
			return Optional.empty();
		}
		String text = value.trim();
		if (text.isEmpty()) {
			return Optional.empty();
		}
		if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
			// Leading zeros say nothing about the size: "0000000000002" is two seconds.
			int first = 0;
			while (first < text.length() - 1 && text.charAt(first) == '0') {
				first++;
			}
			text = text.substring(first);
			if (text.length() > 12) {
				return Optional.of(BEYOND_LIMIT);
			}
			long seconds = Long.parseLong(text);
			return Optional.of((seconds <= MAX_SECONDS) ? Duration.ofSeconds(seconds) : BEYOND_LIMIT);
		}
		Instant now = clock.instant();
		// IMF-fixdate, then the obsolete RFC 850 and asctime forms (RFC 9110 §5.6.7)
		for (DateTimeFormatter format : List.of(DateTimeFormatter.RFC_1123_DATE_TIME, rfc850(now), ASCTIME)) {
			try {
				ZonedDateTime date = ZonedDateTime.parse(text, format);
				Duration delay = Duration.between(now, date.toInstant());
				if (delay.isNegative()) {
					return Optional.empty();
				}
				return Optional.of((delay.toSeconds() <= MAX_SECONDS) ? delay : BEYOND_LIMIT);
			}
			catch (DateTimeParseException ex) {
				// try the next of the three formats RFC 9110 says a recipient must accept
			}
		}
		return Optional.empty();
	}

	/**
	 * The obsolete RFC 850 form. Its two-digit year is at most 50 years ahead of now (RFC 9110 §5.6.7: a year that
	 * appears to be more than 50 years in the future is the most recent past year with the same last two digits):
	 * from 2026, "76" is 2076 and "77" is 1977.
	 */
	private static DateTimeFormatter rfc850(Instant now) {
		int year = now.atZone(ZoneOffset.UTC).getYear();
		return new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-")
			.appendValueReduced(ChronoField.YEAR, 2, 2, year - 49)
			.appendPattern(" HH:mm:ss zzz")
			.toFormatter(Locale.US);
	}

}
