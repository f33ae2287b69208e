package dev.triage.feign;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

import feign.Capability;
import feign.Client;
import feign.Feign;
import feign.InvocationHandlerFactory;
import feign.InvocationHandlerFactory.MethodHandler;
import feign.codec.Decoder;

/**
 * Puts Triage into a Feign client: the {@link Client} is wrapped for per-attempt classification and breaker
 * recording, and every method handler is wrapped to scope the call, answer with the fallback and report the
 * call. Whatever else builds the client (Spring Cloud's circuit breaker included) keeps working on top.
 */
public final class TriageCapability implements Capability {

	private final ClientRuntime runtime;

	/**
	 * Create the capability of one client.
	 * @param runtime the client's runtime
	 */
	public TriageCapability(ClientRuntime runtime) {
		this.runtime = runtime;
	}

	@Override
	public Client enrich(Client client) {
		return (client instanceof TriageClient) ? client : new TriageClient(client, this.runtime);
	}

	@Override
	public Decoder enrich(Decoder decoder) {
		return (decoder instanceof TriageDecoder) ? decoder : new TriageDecoder(decoder);
	}

	@Override
	public InvocationHandlerFactory enrich(InvocationHandlerFactory factory) {
		return (target, dispatch) -> {
			Map<Method, MethodHandler> wrapped = new LinkedHashMap<>();
			dispatch.forEach((method, handler) -> wrapped.put(method, method.isDefault() ? handler
					: new TriageMethodHandler(handler, this.runtime, method, Feign.configKey(target.type(), method))));
			return factory.create(target, wrapped);
		};
	}

}
