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

import dev.triage.CallRecord;
import dev.triage.CallObserver;
import dev.triage.CallOutcome;
import dev.triage.PoisonRequestEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Writes one line per failed or degraded call: client, method key, request line (query values masked),
 * class, status or transport kind, attempts, whether a fallback answered, why a retry was suppressed (a
 * {@code Retry-After} above its maximum, a non-idempotent request, the deadline, an open breaker), total time.
 * Alert-worthy failures log at WARN; the rest (a 404, a 429 the rule waited out, a client holding itself back)
 * are expected in normal operation and log at DEBUG, so that a service answering many 404s does not pay for a
 * log line each (and fill its logs); the meters count them all. The line is only built when it will be
 * written. No header value is ever written.
 */
public final class CallLog implements CallObserver {

	private static final Log logger = LogFactory.getLog("dev.triage.calls");

	@Override
	public void onPoison(PoisonRequestEvent event) {
		logger.warn("triage poison client=" + event.client() + " method=" + event.methodKey() + " request=\""
				+ event.httpMethod() + " " + event.url() + "\" fingerprint=" + event.fingerprint() + " failures="
				+ event.failures() + " status=" + event.lastResponse().status());
	}

	@Override
	public void onCall(CallRecord call) {
		if (call.outcome() == CallOutcome.SUCCESS) {
			return;
		}
		if (!(call.alert() ? logger.isWarnEnabled() : logger.isDebugEnabled())) {
			return;
		}
		String line = "triage call client=" + call.client() + " method=" + call.methodKey() + " request=\""
				+ ((call.requestLine() != null) ? call.requestLine() : "-") + "\""
				+ ((call.channel() != null) ? " channel=" + call.channel() : "") + " class=" + call.failureClass().tag()
				+ " code=" + call.code() + " attempts=" + call.attempts() + " fallback="
				+ (call.outcome() == CallOutcome.FALLBACK) + " outcome=" + call.outcome().tag()
				+ ((call.retrySuppressed() != null) ? " retry_suppressed=" + call.retrySuppressed().tag() : "")
				+ " elapsed=" + call.elapsed().toMillis() + "ms";
		if (call.alert()) {
			logger.warn(line);
		}
		else {
			logger.debug(line);
		}
	}

}
