package dev.triage.sample;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * An upstream called through Triage.
 */
@FeignClient(name = "inventory", url = "${sample.inventory.url:http://127.0.0.1:${server.port:8080}}")
public interface InventoryClient {

	@GetMapping("/upstream/status/{code}")
	String status(@PathVariable("code") int code);

}
