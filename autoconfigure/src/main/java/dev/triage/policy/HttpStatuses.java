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

import java.util.BitSet;

/**
 * Status codes registered with IANA's HTTP Status Code Registry. Anything else (498, 499, 520, 599, ...) is
 * non-standard and resolves to {@code unknown-status} unless it has an exact key of its own. The "(Unused)"
 * entries 306 and 418 and the temporary 104 count as non-standard: nothing may send them with a meaning.
 */
public final class HttpStatuses {

	private static final int[] REGISTERED = { 100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226,
			300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412,
			413, 414, 415, 416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505,
			506, 507, 508, 510, 511 };

	private static final BitSet REGISTERED_SET = new BitSet(600);

	static {
		for (int status : REGISTERED) {
			REGISTERED_SET.set(status);
		}
	}

	private HttpStatuses() {
	}

	/**
	 * Return whether the status is registered with IANA.
	 * @param status the status code
	 * @return whether it is registered
	 */
	public static boolean isRegistered(int status) {
		return status >= 100 && status <= 599 && REGISTERED_SET.get(status);
	}

}
