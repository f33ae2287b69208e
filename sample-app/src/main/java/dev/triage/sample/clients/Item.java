package dev.triage.sample.clients;

/**
 * An inventory item. A value served from the cache instead of the upstream says so: {@code degraded} is true
 * and {@code degradedReason} tells what actually happened.
 *
 * @param id the item id
 * @param stock units in stock
 * @param degraded whether this is a cached value served because the upstream failed
 * @param degradedReason what the upstream did, {@code null} for a live value
 */
public record Item(String id, int stock, boolean degraded, String degradedReason) {

	/**
	 * Return this item marked as served from the cache.
	 * @param reason what actually happened
	 * @return the degraded copy
	 */
	public Item degraded(String reason) {
		return new Item(this.id, this.stock, true, reason);
	}

}
