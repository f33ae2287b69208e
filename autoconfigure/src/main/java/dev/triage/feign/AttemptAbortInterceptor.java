package dev.triage.feign;

import java.io.IOException;

import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.classic.ExecRuntime;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;

/**
 * Apache HttpClient 5's part of the attempt bound: the first handler of the execution chain arms the bound of the
 * Triage call running on this thread with a way to shut this exchange's connection down. It stays armed while a
 * decoder reads the body, and is disarmed when the call ends.
 */
public final class AttemptAbortInterceptor implements ExecChainHandler {

	/** The name the handler is registered under. */
	public static final String NAME = "triage-attempt-abort";

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		CallContext call = CallContext.innermost();
		if (call != null) {
			ExecRuntime runtime = scope.execRuntime;
			call.abort().arm(() -> {
				if (runtime instanceof Cancellable cancellable) {
					cancellable.cancel();
				}
				else {
					runtime.discardEndpoint();
				}
			});
		}
		return chain.proceed(request, scope);
	}

}
