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

import java.util.Locale;

/**
 * A bounded class of what an attempt or a call ended in, for meters and logs.
 */
public enum FailureClass {

	/** Nothing failed. */
	NONE("none"),

	/** An IANA-registered 2xx status. */
	SUCCESS_2XX("2xx"),

	/** An IANA-registered 3xx status. */
	REDIRECTION_3XX("3xx"),

	/** An IANA-registered 4xx status. */
	CLIENT_ERROR_4XX("4xx"),

	/** An IANA-registered 5xx status. */
	SERVER_ERROR_5XX("5xx"),

	/** A status nobody registered with IANA (498, 499, 520, 599 ...). */
	NONSTANDARD("nonstandard"),

	/** An error event inside a 2xx stream. */
	STREAM_ERROR("stream_error"),

	/** No answer: a {@link TransportFailure}. */
	TRANSPORT("transport"),

	/** Triage refused before the wire: a {@link Refusal}. */
	REFUSED("refused"),

	/** Something failed on this application's side (a 2xx body that does not decode, an encoder). */
	LOCAL("local");

	private final String tag;

	FailureClass(String tag) {
		this.tag = tag;
	}

	/**
	 * Return the tag value, e.g. {@code 5xx}.
	 * @return the tag
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * Return the class of a status: its IANA class, or {@link #NONSTANDARD}.
	 * @param status the HTTP status
	 * @param registered whether IANA registered it
	 * @return the class
	 */
	public static FailureClass ofStatus(int status, boolean registered) {
		if (!registered) {
			return NONSTANDARD;
		}
		return switch (status / 100) {
			case 2 -> SUCCESS_2XX;
			case 3 -> REDIRECTION_3XX;
			case 4 -> CLIENT_ERROR_4XX;
			case 5 -> SERVER_ERROR_5XX;
			default -> NONSTANDARD;
		};
	}

	@Override
	public String toString() {
		return this.tag;
	}

}
