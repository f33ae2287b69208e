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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Reads the error type of a JSON error body: the first JSON pointer (in the configured order) that lands on a
 * string wins. Non-JSON bodies have no type. The message text of an error is never looked at. Jackson's
 * streaming parser reads the body; no tree is built.
 */
public final class ErrorTypeExtractor {

	// Jackson's defaults, field names canonicalized: measured (ErrorTypeBenchmark.streaming64k), a parser that
	// does not canonicalize takes 7x the time and 10x the bytes (9.4 KB instead of 984 B) to find the type.
	private static final JsonFactory FACTORY = new JsonFactory();

	private final List<JsonPointer> pointers;

	private final int maxDepth;

	/**
	 * Create an extractor.
	 * @param pointers JSON pointers, tried in order, e.g. {@code /error/type}
	 * @param property the property the pointers come from, for error messages
	 * @throws InvalidPolicyException if a pointer is malformed
	 */
	public ErrorTypeExtractor(List<String> pointers, String property) {
		List<JsonPointer> compiled = new ArrayList<>();
		for (int i = 0; i < pointers.size(); i++) {
			String pointer = pointers.get(i);
			try {
				compiled.add(JsonPointer.compile(pointer));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidPolicyException(property + "[" + i + "]", pointer,
						"a JSON pointer starting with '/', e.g. /error/type");
			}
		}
		this.pointers = List.copyOf(compiled);
		int depth = 0;
		for (JsonPointer pointer : compiled) {
			int segments = 0;
			for (JsonPointer rest = pointer; !rest.matches(); rest = rest.tail()) {
				segments++;
			}
			depth = Math.max(depth, segments);
		}
		this.maxDepth = depth;
	}

	/**
	 * Return the error type of a body. The body is read as a stream and reading stops as soon as the first
	 * pointer lands on a string, so the type is found in a capped or broken-off body as long as it comes before
	 * the cut, and a large body costs no tree.
	 * @param body the (capped) body bytes
	 * @return the type, or {@code null} when the body is not JSON or names none
	 */
	public String extract(byte[] body) {
		return find(body, false);
	}

	/**
	 * Return the first string the pointers land on, as {@link #extract}, or the start of one that the end of the
	 * body cut (a capped body): for people (a message's start in the log), never for decisions.
	 * @param body the (capped) body bytes
	 * @return the string or its start, {@code null} when the body is not JSON or names none
	 */
	public String extractStart(byte[] body) {
		return find(body, true);
	}

	private String find(byte[] body, boolean startOfCut) {
		if (body == null || !looksLikeJson(body)) {
			return null;
		}
		String best = null;
		int bestIndex = Integer.MAX_VALUE;
		try (JsonParser parser = FACTORY.createParser(body)) {
			int depth = 0;
			JsonToken token;
			while ((token = parser.nextToken()) != null) {
				if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
					if (depth >= this.maxDepth) {
						parser.skipChildren();
						continue;
					}
					depth++;
				}
				else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
					depth--;
				}
				else if (token == JsonToken.VALUE_STRING) {
					int index = this.pointers.indexOf(parser.getParsingContext().pathAsPointer());
					if (index >= 0 && index < bestIndex && startOfCut) {
						String start = startOfCut(parser, body);
						if (start != null) {
							return start;
						}
					}
					if (index >= 0 && index < bestIndex && !parser.getText().isEmpty()) {
						best = parser.getText();
						bestIndex = index;
						if (index == 0) {
							return best;
						}
					}
				}
			}
		}
		catch (IOException ex) {
			// Malformed, or cut off by the cap: what was found before the cut stands.
		}
		return best;
	}

	/**
	 * Return the start of the current string when the end of the body cuts it (as written, escapes included),
	 * {@code null} when it is whole or empty.
	 */
	private static String startOfCut(JsonParser parser, byte[] body) {
		try {
			parser.getText();
			return null;
		}
		catch (IOException cut) {
			long quote = parser.currentTokenLocation().getByteOffset();
			if (quote < 0 || quote + 1 >= body.length) {
				return null;
			}
			return new String(body, (int) quote + 1, body.length - (int) quote - 1, StandardCharsets.UTF_8);
		}
	}

	/**
	 * Return whether a body starts, after a UTF-8 byte order mark and white space, like a JSON object or array.
	 * @param body the body bytes
	 * @return whether it may be JSON
	 */
	public static boolean looksLikeJson(byte[] body) {
		boolean mark = body.length >= 3 && body[0] == (byte) 0xEF && body[1] == (byte) 0xBB && body[2] == (byte) 0xBF;
		for (int i = mark ? 3 : 0; i < body.length; i++) {
			byte b = body[i];
			if (b == '{' || b == '[') {
				return true;
			}
			if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
				return false;
			}
		}
		return false;
	}

}
