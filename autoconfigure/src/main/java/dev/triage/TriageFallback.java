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
