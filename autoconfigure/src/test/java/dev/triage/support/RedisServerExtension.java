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

package dev.triage.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@code redis-server} for one test class: started on a free loopback port before its tests (the class is
 * skipped, saying why, when there is none), stopped after them.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

	private RedisServer server;

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.server = RedisServer.startOrSkip();
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		if (this.server != null) {
			this.server.close();
			this.server = null;
		}
	}

	/**
	 * Return the running server.
	 * @return the server
	 */
	public RedisServer server() {
		return this.server;
	}

}
