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

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds what looks like a credential in a text a person may read (an error message, a setting's value) and puts
 * {@value #REDACTED} in its place: a scheme and its credential ({@code Bearer …}), a named one
 * ({@code password=…}, {@code "api_key": "…"}, {@code X-Api-Key: …}), JSON Web Tokens, prefixed keys
 * ({@code sk-…}, {@code ghp_…}, {@code AKIA…}) and long tokens mixing letters and digits.
 */
public final class Credentials {

	/** What stands for a credential. */
	public static final String REDACTED = "[redacted]";

	private static final String SCHEMES = "bearer|basic|digest|token|negotiate";

	/** A scheme and its credential; a scheme word right after another ("token Bearer x") is not the credential. */
	private static final Pattern SCHEME_CREDENTIAL = Pattern
		.compile("(?i)\\b(" + SCHEMES + ")\\s+(?!(?:" + SCHEMES + ")\\b)[A-Za-z0-9._~+/=-]{4,}");

	private static final Pattern NAMED_CREDENTIAL = Pattern.compile("(?i)([A-Za-z0-9_.-]*(?:pass(?:word|wd)?|pwd|secret"
			+ "|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[A-Za-z]*|credential|cookie|session[_-]?id"
			+ "|sessionid|signature|sig)[A-Za-z0-9_.-]*)([\"']?\\s*[:=]\\s*[\"']?)([^\\s\"',;&}]+)");

	private static final Pattern JWT = Pattern.compile("\\beyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*");

	private static final Pattern PREFIXED_KEY = Pattern
		.compile("\\b(?:sk|pk|rk|ghp|gho|ghu|ghs|ghr|glpat|xox[abposr]|AKIA|ASIA|AIza)[-_A-Za-z0-9]{8,}");

	private static final Pattern OPAQUE = Pattern
		.compile("(?<![A-Za-z0-9_+/=-])(?=[A-Za-z0-9_+/=-]*[0-9])(?=[A-Za-z0-9_+/=-]*[A-Za-z])[A-Za-z0-9_+/=-]{24,}");

	private Credentials() {
	}

	/**
	 * Return a text with what looks like a credential redacted.
	 * @param text the text
	 * @return the text, each credential replaced by {@value #REDACTED}
	 */
	public static String redact(String text) {
		String redacted = JWT.matcher(text).replaceAll(REDACTED);
		redacted = SCHEME_CREDENTIAL.matcher(redacted).replaceAll("$1 " + REDACTED);
		redacted = NAMED_CREDENTIAL.matcher(redacted).replaceAll((match) -> Matcher.quoteReplacement(match.group(1)
				+ match.group(2) + (match.group(3).equals("***") ? "***" : REDACTED)));
		redacted = PREFIXED_KEY.matcher(redacted).replaceAll(REDACTED);
		return OPAQUE.matcher(redacted).replaceAll(REDACTED);
	}

}
