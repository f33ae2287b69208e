package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * A client with a Resilience4j rate limiter of its own (resilience4j.ratelimiter.instances.limited).
 */
@FeignClient(name = "limited", url = "${demo.upstream-url}")
public interface LimitedClient {

	@GetMapping("/ok")
	String ping();

}
