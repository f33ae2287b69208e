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

import java.lang.reflect.Field;

/**
 * What another library holds but has no getter for (HttpClient 5's execution chain, Spring's {@code RestClient}
 * builder, Feign's OkHttp client), read from its fields when a client is built, never per call; a field that must
 * be read per call (a request's connection) is looked up once ({@link #field}).
 */
public final class PrivateFields {

	private PrivateFields() {
	}

	/**
	 * Read a private field of another library's object.
	 * @param target the object
	 * @param name the field, declared by the object's own class
	 * @return its value
	 * @throws ReflectiveOperationException when it cannot be read
	 */
	public static Object read(Object target, String name) throws ReflectiveOperationException {
		Field field = target.getClass().getDeclaredField(name);
		field.setAccessible(true);
		return field.get(target);
	}

	/**
	 * Resolve a private field once, to read it later without looking it up again.
	 * @param type the class that declares it
	 * @param name the field
	 * @return the field, accessible
	 * @throws ReflectiveOperationException when there is no such field
	 */
	public static Field field(Class<?> type, String name) throws ReflectiveOperationException {
		Field field = type.getDeclaredField(name);
		field.setAccessible(true);
		return field;
	}

}
