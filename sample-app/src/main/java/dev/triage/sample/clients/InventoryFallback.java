package dev.triage.sample.clients;

import dev.triage.OriginalResponse;
import dev.triage.TriageFallback;
import dev.triage.UpstreamException;
import dev.triage.UpstreamResponseException;

/**
 * Serves the last known item, marked degraded with what actually happened, when the upstream failed or the
 * breaker is open. A 4xx is our own mistake and is rethrown; calls with no cached answer rethrow too, so a
 * placeholder is never passed off as data.
 */
public class InventoryFallback implements TriageFallback<InventoryClient> {

	private final ItemCache cache;

	public InventoryFallback(ItemCache cache) {
		this.cache = cache;
	}

	@Override
	public InventoryClient create(Throwable exception, OriginalResponse response) {
		RuntimeException original = (response != null) ? new UpstreamResponseException(response)
				: (RuntimeException) exception;
		if (response != null && response.status() >= 400 && response.status() < 500) {
			throw original;
		}
		String reason = (response != null) ? "upstream answered " + response.status()
				: ((UpstreamException) exception).getClass().getSimpleName();
		return new InventoryClient() {

			@Override
			public Item item(String id) {
				return InventoryFallback.this.cache.get(id).map((item) -> item.degraded(reason)).orElseThrow(() -> original);
			}

			@Override
			public String slow() {
				throw original;
			}

			@Override
			public String hang() {
				throw original;
			}

			@Override
			public String reset() {
				throw original;
			}

		};
	}

}
