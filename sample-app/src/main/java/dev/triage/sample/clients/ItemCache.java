package dev.triage.sample.clients;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last live value of every item, kept from real successful answers.
 */
public class ItemCache {

	private final Map<String, Item> items = new ConcurrentHashMap<>();

	public void remember(Item item) {
		if (!item.degraded()) {
			this.items.put(item.id(), item);
		}
	}

	public Optional<Item> get(String id) {
		return Optional.ofNullable(this.items.get(id));
	}

}
