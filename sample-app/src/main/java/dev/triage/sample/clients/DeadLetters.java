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

package dev.triage.sample.clients;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.triage.PoisonRequestEvent;
import org.springframework.context.event.EventListener;

/**
 * The application's dead letter: every request Triage found to be poison is kept here for someone to look at
 * (a real application would write it to a table or a queue).
 */
public class DeadLetters {

	private final List<PoisonRequestEvent> letters = new CopyOnWriteArrayList<>();

	@EventListener
	public void store(PoisonRequestEvent event) {
		this.letters.add(event);
	}

	public List<PoisonRequestEvent> letters() {
		return List.copyOf(this.letters);
	}

}
