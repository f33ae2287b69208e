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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.triage.UpstreamResponseException;

/**
 * Watches a 2xx event stream as the caller reads it (SPEC §4.1; the 5xx article: "errors inside a streaming
 * response need an extra handling layer", 流式响应里的错误…需要额外的处理层). Server-sent events
 * ({@code text/event-stream}) and newline-delimited JSON ({@code application/x-ndjson}) are handed over event by
 * event; an error event (an SSE event named {@code error}, or an event whose JSON data has an object member
 * {@code error}) ends the stream for the caller, after the events before it, with the
 * {@link dev.triage.UpstreamResponseException} the engine records for it. A top-level {@code type} alone never
 * makes an error: ordinary events carry one too.
 */
final class StreamWatch extends InputStream {

	private static final JsonFactory JSON = new JsonFactory();

	private static final String SSE = "text/event-stream";

	private static final String NDJSON = "application/x-ndjson";

	private final InputStream in;

	private final boolean sse;

	private final int cap;

	/** {@code triage.max-body-bytes}: what an error event's body is cut to. */
	private final int maxBodyBytes;

	private final Engine.Settlement settlement;

	/** Bytes of events already checked, not yet handed over. */
	private byte[] ready = new byte[0];

	private int readyAt;

	/** Bytes of the event being received. */
	private byte[] pending = new byte[256];

	private int pendingLength;

	private boolean ended;

	/** The error event that ended the stream, thrown once the events before it have been handed over. */
	private UpstreamResponseException error;

	StreamWatch(InputStream in, boolean sse, int cap, Engine.Settlement settlement) {
		this.in = in;
		this.sse = sse;
		this.cap = Math.max(cap, 1024);
		this.maxBodyBytes = cap;
		this.settlement = settlement;
	}

	/**
	 * Return whether a content type is an event stream Triage watches.
	 * @param contentType the content type, {@code null} when none
	 * @return whether it is SSE or NDJSON
	 */
	static boolean watched(String contentType) {
		return sse(contentType) || startsWithIgnoringCase(contentType, NDJSON);
	}

	static boolean sse(String contentType) {
		return startsWithIgnoringCase(contentType, SSE);
	}

	/**
	 * Compared in place: asked of every 2xx, where a lower-cased copy would be a string per answer.
	 */
	private static boolean startsWithIgnoringCase(String contentType, String prefix) {
		return contentType != null && contentType.regionMatches(true, 0, prefix, 0, prefix.length());
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		int n = read(one, 0, 1);
		return (n == -1) ? -1 : (one[0] & 0xff);
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		while (this.readyAt == this.ready.length) {
			if (this.error != null) {
				throw this.error;
			}
			if (this.ended) {
				return -1;
			}
			fill();
		}
		int n = Math.min(length, this.ready.length - this.readyAt);
		System.arraycopy(this.ready, this.readyAt, buffer, offset, n);
		this.readyAt += n;
		return n;
	}

	@Override
	public int available() {
		return this.ready.length - this.readyAt;
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

	/**
	 * Read more of the stream and move every complete event, checked, to the bytes handed over; an error event
	 * stops there (what came after it is dropped) and is thrown once the events before it have been read.
	 */
	private void fill() throws IOException {
		byte[] chunk = new byte[4096];
		int n = this.in.read(chunk);
		byte[] out = new byte[0];
		if (n == -1) {
			this.ended = true;
			byte[] last = Arrays.copyOf(this.pending, this.pendingLength);
			if (last.length > 0 && check(last, false)) {
				out = last;
			}
			this.pendingLength = 0;
		}
		else {
			append(chunk, n);
			int start = 0;
			for (int i = 0; i < this.pendingLength; i++) {
				int end = boundary(i);
				if (end > 0) {
					byte[] event = Arrays.copyOfRange(this.pending, start, end);
					if (!check(event, false)) {
						start = this.pendingLength;
						break;
					}
					out = concat(out, event);
					start = end;
					i = end - 1;
				}
			}
			if (start == 0 && this.pendingLength > this.cap) {
				// An event longer than the cap is not held in memory: it is checked by its head (an SSE event named
				// error, JSON data whose first member of that name is an object), an error event ends the stream
				// there, and any other is handed over unchecked.
				byte[] head = Arrays.copyOf(this.pending, this.pendingLength);
				start = this.pendingLength;
				if (check(head, true)) {
					out = concat(out, head);
				}
			}
			System.arraycopy(this.pending, start, this.pending, 0, this.pendingLength - start);
			this.pendingLength -= start;
		}
		this.ready = out;
		this.readyAt = 0;
	}

	/**
	 * Return the end (exclusive) of an event that ends at {@code i}, or 0: a blank line ends an SSE event, a line
	 * end an NDJSON one.
	 */
	private int boundary(int i) {
		if (this.sse && this.pending[i] == '\r') {
			// A lone CR ends a line too: two of them end an event (a CR before a LF is half of a CRLF).
			return (i >= 1 && this.pending[i - 1] == '\r' && (i + 1 >= this.pendingLength || this.pending[i + 1] != '\n'))
					? i + 1 : 0;
		}
		if (this.pending[i] != '\n') {
			return 0;
		}
		if (!this.sse) {
			return i + 1;
		}
		if (i >= 1 && this.pending[i - 1] == '\n') {
			return i + 1;
		}
		if (i >= 2 && this.pending[i - 1] == '\r' && this.pending[i - 2] == '\n') {
			return i + 1;
		}
		return 0;
	}

	/**
	 * Return whether an event is handed over; an error event is not: it ends the stream, its exception (the
	 * engine records the attempt) is kept for the read that comes after the events before it.
	 * @param event the event's bytes
	 * @param headOnly whether they are only the head of an event longer than the cap
	 */
	private boolean check(byte[] event, boolean headOnly) {
		String text = new String(event, StandardCharsets.UTF_8);
		String name = null;
		StringBuilder data = new StringBuilder();
		if (this.sse) {
			for (String line : text.split("\r\n|\r|\n")) {
				if (line.startsWith("event:")) {
					name = line.substring(6).trim();
				}
				else if (line.startsWith("data:")) {
					if (data.length() > 0) {
						data.append('\n');
					}
					data.append(line.substring(5).startsWith(" ") ? line.substring(6) : line.substring(5));
				}
			}
		}
		else {
			data.append(text.trim());
		}
		ErrorMember member = errorMember(data.toString());
		boolean error = "error".equals(name) || member != null;
		if (!error) {
			return true;
		}
		this.ended = true;
		String errorType = (member != null) ? member.type() : null;
		byte[] body = (data.length() > 0) ? data.toString().getBytes(StandardCharsets.UTF_8) : event;
		// The body as an error body is kept: at most max-body-bytes, said truncated when the event was longer (or
		// checked by its head only).
		boolean truncated = headOnly || body.length > this.maxBodyBytes;
		if (body.length > this.maxBodyBytes) {
			body = Arrays.copyOf(body, this.maxBodyBytes);
		}
		this.error = this.settlement.streamError(body, truncated, errorType);
		return false;
	}

	/**
	 * The top-level {@code error} object of an event's JSON data, and its error type ({@code /error/type}, then
	 * {@code /error/code}), or {@code null} when the data is no JSON object with an object member {@code error}.
	 */
	private static ErrorMember errorMember(String data) {
		if (data.isEmpty() || data.charAt(0) != '{') {
			return null;
		}
		try (JsonParser parser = JSON.createParser(data)) {
			parser.nextToken();
			while (parser.nextToken() == JsonToken.FIELD_NAME) {
				String field = parser.currentName();
				JsonToken value = parser.nextToken();
				if ("error".equals(field) && value == JsonToken.START_OBJECT) {
					String[] types = new String[2];
					try {
						typeOf(parser, types);
					}
					catch (IOException | RuntimeException cut) {
						// The data ends inside the error object (an event longer than the cap, checked by its
						// head): an error all the same, its type if it came before the end.
					}
					return new ErrorMember((types[0] != null) ? types[0] : types[1]);
				}
				parser.skipChildren();
			}
			return null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Read the error object's {@code type} into {@code types[0]} and {@code code} into {@code types[1]}, as far as
	 * the data goes.
	 */
	private static void typeOf(JsonParser parser, String[] types) throws IOException {
		while (parser.nextToken() == JsonToken.FIELD_NAME) {
			String field = parser.currentName();
			JsonToken value = parser.nextToken();
			if (value == JsonToken.VALUE_STRING && "type".equals(field)) {
				types[0] = parser.getText();
			}
			else if (value == JsonToken.VALUE_STRING && "code".equals(field)) {
				types[1] = parser.getText();
			}
			else {
				parser.skipChildren();
			}
		}
	}

	private record ErrorMember(String type) {
	}

	private void append(byte[] chunk, int n) {
		if (this.pendingLength + n > this.pending.length) {
			this.pending = Arrays.copyOf(this.pending, Math.max(this.pending.length * 2, this.pendingLength + n));
		}
		System.arraycopy(chunk, 0, this.pending, this.pendingLength, n);
		this.pendingLength += n;
	}

	private static byte[] concat(byte[] a, byte[] b) {
		if (a.length == 0) {
			return b;
		}
		byte[] both = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, both, a.length, b.length);
		return both;
	}

}
