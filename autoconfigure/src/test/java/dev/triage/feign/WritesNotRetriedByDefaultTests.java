package dev.triage.feign;

import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With the defaults, POST, PUT and DELETE reach the wire once whatever went wrong.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=100000" })
class WritesNotRetriedByDefaultTests extends WriteRetries {

	@Override
	int expectedAttempts(String method, int rowAttempts) {
		return 1;
	}

}
