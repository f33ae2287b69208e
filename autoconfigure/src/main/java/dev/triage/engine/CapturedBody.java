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

/**
 * An error body read once, up to the cap, together with what Triage learnt from it: read and parsed once per
 * attempt, whatever kind of client made it.
 *
 * @param bytes the body, at most the cap
 * @param truncated whether the body was longer than the cap or broke off
 * @param errorType the error type found by the configured JSON pointers, {@code null} when none
 */
public record CapturedBody(byte[] bytes, boolean truncated, String errorType) {

	/** No body at all. */
	public static final CapturedBody EMPTY = new CapturedBody(new byte[0], false, null);

}
