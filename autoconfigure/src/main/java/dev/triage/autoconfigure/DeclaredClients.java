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
package dev.triage.autoconfigure;

import java.time.Duration;
import java.util.Map;

/**
 * The clients an application declares at startup, by name (to the interface's class name, {@code null} when
 * unknown), and the configured wait for a pooled connection of their HTTP client ({@code null} when unknown).
 *
 * @param clients the clients
 * @param poolTimeout the pool wait
 */
record DeclaredClients(Map<String, String> clients, Duration poolTimeout) {

	static final DeclaredClients NONE = new DeclaredClients(Map.of(), null);

}
