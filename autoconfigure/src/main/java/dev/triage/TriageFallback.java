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

/**
 * Answers for a Feign client when a call finally fails. Declare one as a bean; it is matched to the client
 * whose interface is {@code C}.
 *
 * @param <C> the Feign client interface
 */
@FunctionalInterface
public interface TriageFallback<C> {

	/**
	 * Create the object that answers the failed call; it is invoked with the same method and arguments.
	 * Exactly one of the two arguments is non-null.
	 * @param exception the transport failure or refusal, {@code null} when the upstream answered
	 * @param response the upstream's non-2xx answer, {@code null} when it did not answer
	 * @return an implementation of the client interface
	 */
	C create(Throwable exception, OriginalResponse response);

}
