package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Calls an upstream that answers 503 to everything: the retry budget caps what a storm sends.
 */
@FeignClient(name = "storm", url = "${demo.upstream-url}")
public interface StormClient {

	@GetMapping("/status/503?retryAfter=0")
	String report();

}
