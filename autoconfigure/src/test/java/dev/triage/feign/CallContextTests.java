package dev.triage.feign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import org.junit.jupiter.api.Test;

/**
 * A call made while another is running on the same thread (a fallback calling another client) has its own
 * context, and the outer one is back when it ends; after the outermost call nothing is left on the thread.
 */
class CallContextTests {

	@Test
	void aNestedCallHasItsOwnContextAndTheOuterOneIsBackAfterIt() {
		ClientRuntime billing = mock(ClientRuntime.class);
		ClientRuntime inventory = mock(ClientRuntime.class);

		CallContext outer = CallContext.open(billing, "BillingClient#invoices()");
		CallContext inner = CallContext.open(inventory, "InventoryClient#item(String)");
		assertThat(CallContext.current(inventory)).isSameAs(inner);
		assertThat(CallContext.current(billing)).isNull();
		assertThat(CallContext.innermost()).isSameAs(inner);

		inner.close();
		assertThat(CallContext.current(billing)).isSameAs(outer);
		assertThat(CallContext.current(inventory)).isNull();

		outer.close();
		assertThat(CallContext.innermost()).isNull();
		assertThat(CallContext.current(billing)).isNull();
	}

}
