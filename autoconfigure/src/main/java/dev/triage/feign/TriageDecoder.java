package dev.triage.feign;

import java.io.IOException;
import java.lang.reflect.Type;

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
			if (response.body() instanceof GuardedBody guarded && guarded.failure() != null) {
				TransportFailureException failure = guarded.failure();
				throw new RetryableException(response.status(), failure.getMessage(),
						(response.request() != null) ? response.request().httpMethod() : null, failure, (Long) null,
						response.request());
			}
			throw ex;
		}
	}

}
