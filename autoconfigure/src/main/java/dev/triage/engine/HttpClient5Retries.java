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

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The retry layer hidden in an Apache HttpClient 5 client of the application's own (SPEC §5, §11: its automatic
 * retries are off). HttpClient 5 retries on its own unless built with {@code disableAutomaticRetries()}: an I/O
 * error, a 429 or 503 (a POST included) is sent again behind the policy table, after waiting out its
 * {@code Retry-After} whatever the deadline says. A client whose default retry strategy has retries left is
 * refused; one with a retry strategy of the application's own, or without the attempt's hard bound
 * ({@link AttemptAbortInterceptor}), is said once per client at WARN.
 * <p>
 * HttpClient 5 does not say what its execution chain holds: its fields are read. When they cannot be, the client
 * is let through and a warning says so once per client.
 */
public final class HttpClient5Retries {

	private static final Log logger = LogFactory.getLog(HttpClient5Retries.class);

	private static final String INTERNAL_CLIENT = "org.apache.hc.client5.http.impl.classic.InternalHttpClient";

	private static final String RETRY_EXEC = "org.apache.hc.client5.http.impl.classic.HttpRequestRetryExec";

	private static final String DEFAULT_STRATEGY = "org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy";

	/** How the keys of this class's warnings begin, for {@link ManagedClient#said}. */
	public static final String WARNING = "httpclient5:";

	private HttpClient5Retries() {
	}

	/**
	 * Refuse an HttpClient 5 client that retries on its own; warn about one whose retries or attempt bound are not
	 * Triage's.
	 * @param client the managed client's name
	 * @param httpClient the HttpClient 5 client (other clients are let through)
	 * @param where where it is, for the messages, e.g. "its RestClient's request factory"
	 * @param fix how to build it instead, for the messages
	 * @param firstTime whether a warning (its key) is said for the first time for this client: each is said once
	 * @throws IllegalStateException when it retries on its own
	 */
	public static void check(String client, Object httpClient, String where, String fix,
			Predicate<String> firstTime) {
		List<Object> chain;
		Integer maxRetries = null;
		Object strategy = null;
		try {
			chain = chain(httpClient);
			if (chain == null) {
				return;
			}
			for (Object handler : chain) {
				if (handler.getClass().getName().equals(RETRY_EXEC)) {
					strategy = PrivateFields.read(handler, "retryStrategy");
					if (strategy.getClass().getName().equals(DEFAULT_STRATEGY)) {
						maxRetries = (Integer) PrivateFields.read(strategy, "maxRetries");
					}
				}
			}
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			warnOnce(firstTime, "Triage cannot tell whether the Apache HttpClient 5 of " + where + " (client '" + client
					+ "') retries on its own (" + ex + "); if it does, its retries hide under the table: " + fix);
			return;
		}
		String subject = "Client '" + client + "': the Apache HttpClient 5 of " + where;
		if (maxRetries != null && maxRetries > 0) {
			throw new IllegalStateException(subject + " retries on its own (up to " + maxRetries + " more times: an "
					+ "I/O error, a 429 or 503, a POST included, after waiting out its Retry-After), under Triage's "
					+ "policy table, which then no longer decides how often a request is sent. To fix: " + fix + ".");
		}
		if (strategy != null && maxRetries == null) {
			warnOnce(firstTime, subject + " has a retry strategy of its own (" + strategy.getClass().getName()
					+ "): what it retries is sent behind Triage's policy table. To leave the retries to the table, "
					+ fix);
		}
		if (chain.stream().noneMatch(AttemptAbortInterceptor.class::isInstance)) {
			warnOnce(firstTime, subject + " has no attempt bound, so an attempt can outlast the client's deadline and a "
					+ "timeout's configured value is not reported. To bound it, " + fix);
		}
	}

	private static void warnOnce(Predicate<String> firstTime, String message) {
		if (firstTime.test(WARNING + message)) {
			logger.warn(message);
		}
	}

	/**
	 * Return the handlers of an HttpClient 5 client's execution chain, {@code null} when it is not HttpClient 5's
	 * own client class.
	 */
	private static List<Object> chain(Object httpClient) throws ReflectiveOperationException {
		if (httpClient == null || !httpClient.getClass().getName().equals(INTERNAL_CLIENT)) {
			return null;
		}
		List<Object> handlers = new ArrayList<>();
		for (Object element = PrivateFields.read(httpClient, "execChain"); element != null;
				element = PrivateFields.read(element, "next")) {
			handlers.add(PrivateFields.read(element, "handler"));
		}
		return handlers;
	}

}
