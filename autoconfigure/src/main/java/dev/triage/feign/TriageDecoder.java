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

package dev.triage.feign;

import java.io.IOException;
import java.lang.reflect.Type;

import dev.triage.engine.BodyGuard;
import dev.triage.engine.Call;
import dev.triage.engine.TransportFailureException;
import feign.FeignException;
import feign.Response;
import feign.RetryableException;
import feign.codec.Decoder;

/**
 * Wraps the client's decoder: when the body of a 2xx answer breaks off (or the attempt's bound cuts it), the
 * decoder's error becomes the attempt's transport failure, handed to the retryer like a failed request would be,
 * instead of a {@code DecodeException} the caller would get untyped. Errors of the decoding itself (a body that
 * is not the expected JSON) are left as they are.
 */
final class TriageDecoder implements Decoder {

	private final Decoder delegate;

	TriageDecoder(Decoder delegate) {
		this.delegate = delegate;
	}

	@Override
	public Object decode(Response response, Type type) throws IOException, FeignException {
		try {
			return this.delegate.decode(response, type);
		}
		catch (IOException | RuntimeException ex) {
			TransportFailureException failure = failure(response);
			if (failure != null) {
				throw new RetryableException(response.status(), failure.getMessage(),
						(response.request() != null) ? response.request().httpMethod() : null, failure, (Long) null,
						response.request());
			}
			throw ex;
		}
	}

	/**
	 * Return how reading a guarded 2xx body failed: guarded by the adapter ({@link GuardedBody}) or inside the
	 * HTTP client (the call's {@link BodyGuard}).
	 */
	private static TransportFailureException failure(Response response) {
		if (response.body() instanceof GuardedBody guarded) {
			return guarded.failure();
		}
		Call call = Call.innermost();
		BodyGuard guard = (call != null) ? call.bodyGuard() : null;
		return (guard != null) ? guard.failure() : null;
	}

}
