package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * A catalog service called directly: the status-code scenarios of the tour.
 */
@FeignClient(name = "catalog", url = "${demo.upstream-url}")
public interface CatalogClient {

	@GetMapping("/ok")
	String ok();

	@GetMapping("/status/{code}")
	String status(@PathVariable("code") int code);

	@GetMapping("/flap/{key}")
	String flap(@PathVariable("key") String key);

	@GetMapping("/quota/{key}")
	String quota(@PathVariable("key") String key);

	@PostMapping("/slow")
	String placeOrder(@RequestBody String order);

	@GetMapping("/orders/{id}")
	String order(@PathVariable("id") String id);

}
