package dev.triage.policy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the error type of a JSON error body: the first JSON pointer that lands on a string wins. Non-JSON
 * and malformed bodies have no type. The message text of an error is never looked at.
 */
public final class ErrorTypeExtractor {

	private static final ObjectMapper MAPPER = new ObjectMapper();

	private final List<JsonPointer> pointers;

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
	}

	/**
	 * Return the error type of a body.
	 * @param body the (capped) body bytes
	 * @return the type, or {@code null} when the body is not JSON or names none
	 */
	public String extract(byte[] body) {
		if (body == null || !looksLikeJson(body)) {
			return null;
		}
		JsonNode root;
		try {
			root = MAPPER.readTree(body);
		}
		catch (IOException ex) {
			return null;
		}
		if (root == null) {
			return null;
		}
		for (JsonPointer pointer : this.pointers) {
			JsonNode node = root.at(pointer);
			if (node.isTextual() && !node.textValue().isEmpty()) {
				return node.textValue();
			}
		}
		return null;
	}

	private static boolean looksLikeJson(byte[] body) {
		for (byte b : body) {
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
