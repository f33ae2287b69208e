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

package dev.triage.autoconfigure;

/**
 * Another library's setting that Triage cannot work with. Carries the property, its value, why it conflicts
 * and how to fix it, for {@link ConflictingSettingFailureAnalyzer}.
 */
class ConflictingSettingException extends IllegalStateException {

	private final String clients;

	private final String property;

	private final Object value;

	private final String reason;

	private final String fix;

	ConflictingSettingException(String clients, String property, Object value, String reason, String fix) {
		super("'" + property + "=" + value + "' conflicts with Triage: " + reason);
		this.clients = clients;
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.fix = fix;
	}

	/**
	 * Return the clients Triage cannot manage with the setting, e.g. {@code Feign clients}.
	 */
	String clients() {
		return this.clients;
	}

	String property() {
		return this.property;
	}

	Object value() {
		return this.value;
	}

	String reason() {
		return this.reason;
	}

	String fix() {
		return this.fix;
	}

}
