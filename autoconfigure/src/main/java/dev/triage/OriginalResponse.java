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

package dev.triage;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.triage.engine.ErrorMessages;

/**
 * What the upstream actually said on the final attempt of a call. Sensitive headers are redacted, the query
 * string values of {@link #url()} are masked, and the body is capped at {@code triage.max-body-bytes}.
 *
 * @param client the Feign client name
 * @param methodKey the Feign method key, e.g. {@code InventoryClient#item(String)}
 * @param httpMethod the request method
 * @param url the request URL with query values masked
 * @param status the HTTP status code
 * @param reason the reason phrase, possibly empty
 * @param headers the response headers, names case-insensitive, sensitive values redacted
 * @param body the response body, at most {@code triage.max-body-bytes} long
 * @param bodyTruncated whether the upstream sent more than {@link #body()} holds
 * @param errorType the error type read from the JSON body, or {@code null}
 * @param retryAfter the parsed {@code Retry-After} delay, if the header was present and valid
 * @param attempts the attempts made for this call, including the first
 * @param elapsed the time spent on the call across all attempts
 * @param channel the channel that answered: {@code primary} (the client's own URL) or a configured channel name
 */
public record OriginalResponse(String client, String methodKey, String httpMethod, String url, int status,
		String reason, Map<String, List<String>> headers, byte[] body, boolean bodyTruncated, String errorType,
		Optional<Duration> retryAfter, int attempts, Duration elapsed, String channel) {

	/** The name of the channel that is the client's own URL. */
	public static final String PRIMARY = "primary";

	/**
	 * Create an instance for an answer of the client's own URL.
	 */
	public OriginalResponse(String client, String methodKey, String httpMethod, String url, int status, String reason,
			Map<String, List<String>> headers, byte[] body, boolean bodyTruncated, String errorType,
			Optional<Duration> retryAfter, int attempts, Duration elapsed) {
		this(client, methodKey, httpMethod, url, status, reason, headers, body, bodyTruncated, errorType, retryAfter,
				attempts, elapsed, PRIMARY);
	}

	/**
	 * Create an instance, copying headers into an unmodifiable case-insensitive map.
	 */
	public OriginalResponse {
		TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		if (headers != null) {
			headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
		}
		headers = Collections.unmodifiableMap(copy);
		body = (body != null) ? body : new byte[0];
		reason = (reason != null) ? reason : "";
		retryAfter = (retryAfter != null) ? retryAfter : Optional.empty();
		elapsed = (elapsed != null) ? elapsed : Duration.ZERO;
		channel = (channel != null) ? channel : PRIMARY;
	}

	/**
	 * Return the body decoded with the charset of the {@code Content-Type} header, UTF-8 when absent.
	 * @return the (possibly truncated) body text
	 */
	public String bodyAsString() {
		return new String(this.body, charset());
	}

	/**
	 * Return a copy with the call-level figures filled in.
	 * @param attempts the attempts made
	 * @param elapsed the time spent on the call
	 * @return a new instance
	 */
	public OriginalResponse withCall(int attempts, Duration elapsed) {
		return new OriginalResponse(this.client, this.methodKey, this.httpMethod, this.url, this.status,
				this.reason, this.headers, this.body, this.bodyTruncated, this.errorType, this.retryAfter, attempts,
				elapsed, this.channel);
	}

	private Charset charset() {
		List<String> types = this.headers.get("Content-Type");
		if (types != null && !types.isEmpty()) {
			for (String part : types.get(0).split(";")) {
				String trimmed = part.trim();
				if (trimmed.regionMatches(true, 0, "charset=", 0, 8)) {
					try {
						return Charset.forName(trimmed.substring(8).replace("\"", ""));
					}
					catch (RuntimeException ex) {
						return StandardCharsets.UTF_8;
					}
				}
			}
		}
		return StandardCharsets.UTF_8;
	}

	@Override
	public String toString() {
		return "OriginalResponse[client=" + this.client + ", methodKey=" + this.methodKey + ", request="
				+ this.httpMethod + " " + this.url + ", status=" + this.status + ", errorType=" + shown(this.errorType)
				+ ", bodyBytes=" + this.body.length + (this.bodyTruncated ? "+" : "") + ", attempts=" + this.attempts
				+ ", elapsed=" + this.elapsed + ", channel=" + this.channel + "]";
	}

	/**
	 * Return an upstream's text (an error type, a reason phrase) as a message shows it, sanitized as the call log
	 * does (credentials redacted, URLs without query values or user info, one line), at most 100 characters. A body
	 * may say anything; a message must not forge a log line, nor carry a secret into the logs of whoever logs it.
	 * @param raw the text, {@code null} for none
	 * @return the text as shown
	 */
	static String shown(String raw) {
		if (raw == null) {
			return null;
		}
		String text = ErrorMessages.sanitize(raw);
		if (text == null) {
			return "";
		}
		// Already one line, without control characters.
		return (text.length() > 100) ? text.substring(0, 100) + '…' : text;
	}

}
