package dev.triage.support;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "billing", url = "${test.upstream.billing}")
public interface BillingClient {

	@GetMapping("/invoices")
	String invoices();

	@GetMapping("/invoices/{id}")
	String invoice(@org.springframework.web.bind.annotation.PathVariable("id") String id);

}
