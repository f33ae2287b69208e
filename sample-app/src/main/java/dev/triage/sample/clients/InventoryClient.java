package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * An inventory service behind the gateway (which answers 599 when the backend does not answer in time).
 */
@FeignClient(name = "inventory", url = "${demo.gateway-url}")
public interface InventoryClient {

	@GetMapping("/items/{id}")
	Item item(@PathVariable("id") String id);

	@GetMapping("/slow")
	String slow();

	@GetMapping("/hang")
	String hang();

	@GetMapping("/reset")
	String reset();

}
