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

/**
 * A policy table value is not allowed. Carries the property, the bad value and what is allowed, so that
 * startup can fail with a message that says how to fix it. The value is kept and shown as
 * {@link ShownValues#of} gives it, never with a secret: this message reaches Spring's log line and the failure
 * report.
 */
public class InvalidPolicyException extends IllegalArgumentException {

	private final String property;

	private final String value;

	private final String allowed;

	/**
	 * Create an instance.
	 * @param property the full property name
	 * @param value the bad value as written
	 * @param allowed a description of the allowed values
	 */
	public InvalidPolicyException(String property, Object value, String allowed) {
		super("Invalid value '" + ShownValues.of(value) + "' for property '" + property + "': allowed " + allowed);
		this.property = property;
		this.value = ShownValues.of(value);
		this.allowed = allowed;
	}

	/**
	 * Create an instance for a value that is not shown at all, not even in part, because what is wrong with it
	 * suggests it holds a secret (a header value where a header name belongs).
	 * @param property the full property name
	 * @param allowed a description of the allowed values
	 * @return the exception
	 */
	public static InvalidPolicyException hidingValue(String property, String allowed) {
		return new InvalidPolicyException(property, ShownValues.HIDDEN, allowed);
	}

	/**
	 * Return the full property name.
	 * @return the property
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return the bad value as it may be shown (without user info, query or fragment).
	 * @return the value
	 */
	public String getValue() {
		return this.value;
	}

	/**
	 * Return a description of the allowed values.
	 * @return what is allowed
	 */
	public String getAllowed() {
		return this.allowed;
	}

}
