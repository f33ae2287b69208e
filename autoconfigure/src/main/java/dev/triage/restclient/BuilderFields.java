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

package dev.triage.restclient;

import dev.triage.engine.PrivateFields;
import org.springframework.web.client.RestClient;

/**
 * What Spring's {@code RestClient.Builder} holds but has no getter for, read from its fields (Spring Framework
 * 6.2 and 7 name them alike). Read when a client's customization is applied to a builder, never per call.
 */
final class BuilderFields {

	private static final String BUILDER = "org.springframework.web.client.DefaultRestClientBuilder";

	private BuilderFields() {
	}

	/**
	 * Return whether a builder is Spring's own, whose fields these are.
	 * @param builder the builder
	 * @return whether its fields can be read here
	 */
	static boolean readable(RestClient.Builder builder) {
		return BUILDER.equals(builder.getClass().getName());
	}

	/**
	 * Read a field of Spring's builder.
	 * @param builder the builder, {@link #readable(RestClient.Builder) readable}
	 * @param name the field's name
	 * @return its value
	 * @throws ReflectiveOperationException when it cannot be read
	 */
	static Object read(RestClient.Builder builder, String name) throws ReflectiveOperationException {
		return PrivateFields.read(builder, name);
	}

	/**
	 * Return the base URL a builder's requests are built on ({@code baseUrl(...)}), without a trailing slash.
	 * @param builder the builder
	 * @return the base URL, {@code null} when it has none, builds its URIs with a {@code UriBuilderFactory} of
	 * its own, or cannot be read
	 */
	static String baseUrl(RestClient.Builder builder) {
		if (!readable(builder)) {
			return null;
		}
		try {
			if (read(builder, "uriBuilderFactory") != null) {
				return null;
			}
			return (read(builder, "baseUrl") instanceof String base) ? base : null;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
