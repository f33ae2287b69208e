package dev.triage.policy;

import java.time.Clock;
import java.time.Duration;
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
 * Parses a {@code Retry-After} header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A malformed,
 * negative, past or overflowing value yields empty, so the caller falls back to its backoff.
 */
public final class RetryAfter {

	/** Longest delay accepted at all; anything longer is treated as overflow. */
	private static final long MAX_SECONDS = Duration.ofDays(365).toSeconds();

	/** IMF-fixdate, then the obsolete RFC 850 and asctime forms (RFC 9110 §5.6.7). */
	private static final List<DateTimeFormatter> HTTP_DATES = List.of(DateTimeFormatter.RFC_1123_DATE_TIME,
			new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-")
				.appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
				.appendPattern(" HH:mm:ss zzz")
				.toFormatter(Locale.US),
			new DateTimeFormatterBuilder().appendPattern("EEE MMM")
				.appendLiteral(' ')
				.optionalStart()
				.appendLiteral(' ')
				.optionalEnd()
				.appendPattern("d HH:mm:ss yyyy")
				.toFormatter(Locale.US)
				.withZone(ZoneOffset.UTC));

	private RetryAfter() {
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
			if (text.length() > 12) {
				return Optional.empty();
			}
			long seconds = Long.parseLong(text);
			return (seconds <= MAX_SECONDS) ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
		}
		for (DateTimeFormatter format : HTTP_DATES) {
			try {
				ZonedDateTime date = ZonedDateTime.parse(text, format);
				Duration delay = Duration.between(clock.instant(), date.toInstant());
				if (delay.isNegative() || delay.toSeconds() > MAX_SECONDS) {
					return Optional.empty();
				}
				return Optional.of(delay);
			}
			catch (DateTimeParseException ex) {
				// try the next of the three formats RFC 9110 says a recipient must accept
			}
		}
		return Optional.empty();
	}

}
