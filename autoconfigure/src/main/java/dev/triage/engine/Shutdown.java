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

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The application's clients are closing (its context is being closed): a caller waiting between attempts is
 * woken and ends with what really happened on its last attempt, and no call makes another attempt on HTTP clients
 * that are being shut down.
 */
public final class Shutdown {

	/** For engines outside an application (tests, benchmarks): never closes. */
	static final Shutdown NEVER = new Shutdown();

	private final CountDownLatch closed = new CountDownLatch(1);

	/**
	 * Close: wake every waiting caller.
	 */
	public void close() {
		this.closed.countDown();
	}

	/**
	 * Return whether the clients are closing.
	 * @return whether {@link #close()} was called
	 */
	public boolean closed() {
		return this.closed.getCount() == 0;
	}

	/**
	 * Wait between attempts.
	 * @param wait how long
	 * @return {@code true} when the wait ended, {@code false} when the clients closed first
	 * @throws InterruptedException when the caller's thread is interrupted
	 */
	boolean sleep(Duration wait) throws InterruptedException {
		return !this.closed.await(wait.toNanos(), TimeUnit.NANOSECONDS);
	}

}
