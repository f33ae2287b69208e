package dev.triage.feign;

import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * An application whose API keeps RFC 9110's idempotency opts PUT and DELETE in: they get the row's attempts,
 * POST still gets one.
 */
@WithoutProtection
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.cloud.openfeign.client.config.inventory.read-timeout=300",
				"resilience4j.circuitbreaker.instances.inventory.minimum-number-of-calls=100000",
				"triage.idempotent-methods=GET,HEAD,OPTIONS,TRACE,PUT,DELETE" })
class PutAndDeleteOptedInTests extends WriteRetries {

	@Override
	int expectedAttempts(String method, int rowAttempts) {
		return method.equals("POST") ? 1 : rowAttempts;
	}

}
