package dev.triage.it;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * A client whose read timeout is shorter than nginx's: it gives up first, and nginx logs 499.
 */
@FeignClient(name = "impatient", url = "${it.nginx.url}")
public interface ImpatientClient {

	@GetMapping("/patient/slow")
	String slow();

}
