package dev.triage.support;

import feign.Response;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

@FeignClient(name = "inventory", url = "${test.upstream.inventory}")
public interface InventoryClient {

	@GetMapping("/items/{id}")
	String item(@PathVariable("id") String id);

	@GetMapping("/raw/{id}")
	Response raw(@PathVariable("id") String id);

	@GetMapping("/search")
	String search(@RequestParam("q") String query, @RequestHeader("Authorization") String authorization);

	@GetMapping("/profile")
	String profile(@RequestHeader("Authorization") String authorization, @RequestHeader("Cookie") String cookie);

	@PostMapping("/orders")
	String order(@RequestBody String body);

	@PostMapping("/orders")
	String order(@RequestBody String body, @RequestHeader("Idempotency-Key") String idempotencyKey);

	@PutMapping("/orders/{id}")
	String replace(@PathVariable("id") String id, @RequestBody String body);

	@DeleteMapping("/orders/{id}")
	String cancel(@PathVariable("id") String id);

}
