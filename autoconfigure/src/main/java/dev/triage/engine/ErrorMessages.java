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

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.triage.OriginalResponse;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamTransportException;
import dev.triage.policy.Credentials;
import dev.triage.policy.ErrorTypeExtractor;

/**
 * The start of a failure's message as the call log shows it: for people, never for decisions. An error body's
 * message (the first of {@code /error/message}, {@code /message}, {@code /error_description}, {@code /detail},
 * {@code /title}, {@code /error} that is a string; a body that is not JSON as it is), a transport failure's
 * cause's message, otherwise the exception's own. Bodies may say anything, so every message is sanitized: line
 * breaks and control characters become spaces; URLs lose their query values and user info; credentials
 * ({@code Bearer …}, {@code password=…}, {@code "api_key": "…"}, {@code X-Api-Key: …}), JSON Web Tokens,
 * prefixed keys ({@code sk-…}, {@code ghp_…}, {@code AKIA…}), e-mail addresses, long digit runs and long
 * tokens mixing letters and digits become {@code [redacted]}; at most {@value #MAX_LENGTH} characters are kept.
 */
public final class ErrorMessages {

	/** The longest message the call log shows. */
	static final int MAX_LENGTH = 200;

	/** How much of a body or message is looked at. */
	private static final int MAX_SCANNED = 2048;

	private static final List<String> MESSAGE_POINTERS = List.of("/error/message", "/message", "/error_description",
			"/detail", "/title", "/error");

	/** The first message found at those pointers, read the way error types are. */
	private static final ErrorTypeExtractor MESSAGES = new ErrorTypeExtractor(MESSAGE_POINTERS, "message pointers");

	private static final String REDACTED = Requests.REDACTED;

	private static final Pattern URL = Pattern.compile("(?i)\\b(?:https?|wss?|ftp)://[^\\s\"'<>]+");

	private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");

	private static final Pattern DIGITS = Pattern.compile("\\d[\\d -]{11,}\\d");

	private ErrorMessages() {
	}

	/**
	 * Return the start of a failure's message, sanitized.
	 * @param failure the failure, {@code null} for none
	 * @return the message, {@code null} when there is none
	 */
	static String of(Throwable failure) {
		if (failure == null) {
			return null;
		}
		String raw;
		if (failure instanceof UpstreamResponseException response) {
			raw = fromBody(response.response());
		}
		else if (failure instanceof UpstreamTransportException && failure.getCause() != null) {
			raw = failure.getCause().getMessage();
		}
		else {
			raw = failure.getMessage();
		}
		return sanitize(raw);
	}

	private static String fromBody(OriginalResponse response) {
		byte[] body = response.body();
		if (body == null || body.length == 0) {
			return null;
		}
		if (ErrorTypeExtractor.looksLikeJson(body)) {
			return jsonMessage(body);
		}
		int length = Math.min(body.length, MAX_SCANNED);
		return new String(body, 0, length, StandardCharsets.UTF_8);
	}

	private static String jsonMessage(byte[] body) {
		return MESSAGES.extractStart(body);
	}

	/**
	 * Sanitize a message for the log (and an upstream's text for an exception's message): one line, no
	 * credentials, no query values or user info in URLs, at most {@value #MAX_LENGTH} characters.
	 * @param raw the message, {@code null} for none
	 * @return the sanitized message, {@code null} when nothing is left
	 */
	public static String sanitize(String raw) {
		if (raw == null) {
			return null;
		}
		String text = (raw.length() > MAX_SCANNED) ? raw.substring(0, MAX_SCANNED) : raw;
		StringBuilder flat = new StringBuilder(text.length());
		boolean space = false;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean blank = Character.isWhitespace(c) || Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
			if (blank) {
				if (!space && flat.length() > 0) {
					flat.append(' ');
				}
				space = true;
			}
			else {
				flat.append((c == '"') ? '\'' : c);
				space = false;
			}
		}
		text = flat.toString().strip();
		if (text.isEmpty()) {
			return null;
		}
		text = replaceUrls(text);
		text = Credentials.redact(text);
		text = EMAIL.matcher(text).replaceAll(REDACTED);
		text = DIGITS.matcher(text).replaceAll(REDACTED);
		if (text.length() > MAX_LENGTH) {
			text = text.substring(0, MAX_LENGTH - 1) + "…";
		}
		return text;
	}

	private static String replaceUrls(String text) {
		Matcher matcher = URL.matcher(text);
		if (!matcher.find()) {
			return text;
		}
		return matcher.reset().replaceAll((match) -> Matcher.quoteReplacement(Requests.sanitizeUrl(match.group())));
	}

}
