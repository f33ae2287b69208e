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

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import org.junit.jupiter.api.Test;

/**
 * A call made while another is running on the same thread (a fallback calling another client) has its own
 * context, and the outer one is back when it ends; after the outermost call nothing is left on the thread.
 */
class CallTests {

	@Test
	void aNestedCallHasItsOwnContextAndTheOuterOneIsBackAfterIt() {
		ManagedClient billing = client("billing");
		ManagedClient inventory = client("inventory");

		Call outer = Call.open(billing, "BillingClient#invoices()");
		Call inner = Call.open(inventory, "InventoryClient#item(String)");
		assertThat(Call.current(inventory)).isSameAs(inner);
		assertThat(Call.current(billing)).isNull();
		assertThat(Call.innermost()).isSameAs(inner);

		inner.close();
		assertThat(Call.current(billing)).isSameAs(outer);
		assertThat(Call.current(inventory)).isNull();

		outer.close();
		assertThat(Call.innermost()).isNull();
		assertThat(Call.current(billing)).isNull();
	}

	@Test
	void aCallKeepsTheEngineItOpenedWith() {
		ManagedClient billing = client("billing");
		Engine first = billing.engine();
		Call call = Call.open(billing, "BillingClient#invoices()");
		Engine second = mock(Engine.class);
		given(billing.engine()).willReturn(second);
		try {
			assertThat(Call.current(billing).engine()).isSameAs(first);
		}
		finally {
			call.close();
		}
	}

	private static ManagedClient client(String name) {
		ClientRuntime runtime = mock(ClientRuntime.class);
		given(runtime.name()).willReturn(name);
		Engine engine = mock(Engine.class);
		given(engine.runtime()).willReturn(runtime);
		ManagedClient client = mock(ManagedClient.class);
		given(client.name()).willReturn(name);
		given(client.engine()).willReturn(engine);
		return client;
	}

}
