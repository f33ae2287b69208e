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

import java.io.IOException;

import dev.triage.Refusal;

/**
 * Triage refused an attempt before it reached the wire. Thrown as an {@link IOException} so that a client's
 * retry loop (Feign's) hands it to the retry decision, which ends the call with the last real outcome or an
 * {@link dev.triage.UpstreamUnavailableException}. Carries no stack trace: refusing must stay cheap.
 */
public final class RefusedException extends IOException {

	private final Refusal refusal;

	RefusedException(Refusal refusal, String detail) {
		super(detail, null);
		this.refusal = refusal;
	}

	/**
	 * Return why the attempt was refused.
	 * @return the reason
	 */
	public Refusal refusal() {
		return this.refusal;
	}

	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}

}
