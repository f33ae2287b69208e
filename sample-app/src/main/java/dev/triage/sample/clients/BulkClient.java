package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Calls an upstream that answers 429 to everything, without Retry-After: adaptive throttling cuts what reaches it.
 */
@FeignClient(name = "bulk", url = "${demo.upstream-url}")
public interface BulkClient {

	@GetMapping("/status/429")
	String export();

}
