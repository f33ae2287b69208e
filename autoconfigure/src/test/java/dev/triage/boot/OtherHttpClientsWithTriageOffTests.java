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

package dev.triage.boot;

import dev.triage.support.TestApplication;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link OtherHttpClientsTests} with Triage switched off ({@code triage.enabled=false}, the switch of an
 * incident): the starter still brings Apache HttpClient 5, and switching Triage off must not make the
 * application's own clients resend.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "triage.enabled=false")
class OtherHttpClientsWithTriageOffTests extends OtherHttpClientsTests {

}
