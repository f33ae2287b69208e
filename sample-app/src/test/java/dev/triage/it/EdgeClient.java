package dev.triage.it;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * Calls through nginx; the first path segment picks the nginx location.
 */
@FeignClient(name = "edge", url = "${it.nginx.url}")
public interface EdgeClient {

	@GetMapping("/{location}/{path}")
	String get(@PathVariable("location") String location, @PathVariable("path") String path);

}
