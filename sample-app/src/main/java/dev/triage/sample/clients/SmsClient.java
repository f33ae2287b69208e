package dev.triage.sample.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * An SMS provider with a backup provider configured as a channel
 * ({@code triage.clients.sms.channels.backup}): seed 001's "切换解决故障".
 */
@FeignClient(name = "sms", url = "${demo.upstream-url}")
public interface SmsClient {

	@PostMapping("/sms/send")
	String send(@RequestBody String message, @RequestHeader("Idempotency-Key") String idempotencyKey);

}
