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

import java.time.Duration;

/**
 * A policy table value is not allowed. Carries the property, the bad value and what is allowed, so that
 * startup can fail with a message that says how to fix it.
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
		super("Invalid value '" + display(value) + "' for property '" + property + "': allowed " + allowed);
		this.property = property;
		this.value = display(value);
		this.allowed = allowed;
	}

	private static String display(Object value) {
		// Bound durations print as PT-0.2S; show them the way they are usually written.
		return (value instanceof Duration duration) ? duration.toMillis() + "ms" : String.valueOf(value);
	}

	/**
	 * Return the full property name.
	 * @return the property
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return the bad value as written.
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
