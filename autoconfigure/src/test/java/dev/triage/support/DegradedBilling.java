package dev.triage.support;

/**
 * A billing client that answers "degraded" to everything: what the tests' fallbacks return.
 */
public final class DegradedBilling implements BillingClient {

	@Override
	public String invoices() {
		return "degraded";
	}

	@Override
	public String invoice(String id) {
		return "degraded";
	}

}
