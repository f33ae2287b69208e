package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * An LLM-API-style upstream: the same status carries different error types, decided by the body's
 * {@code error.type}. Requests carry an {@code Idempotency-Key}, so a POST may be retried.
 */
@FeignClient(name = "llm", url = "${demo.upstream-url}/llm")
public interface LlmClient {

	@PostMapping("/v1/messages")
	String complete(@RequestParam("scenario") String scenario, @RequestBody String prompt,
			@RequestHeader("Idempotency-Key") String idempotencyKey);

}
