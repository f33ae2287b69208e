package dev.triage.quickstart;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

@FeignClient(name = "inventory", url = "${inventory.url}")
public interface InventoryClient {

	@GetMapping("/items/{id}")
	String item(@PathVariable("id") String id);

}
