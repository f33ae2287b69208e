package dev.triage.overload;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With the retry budget switched off, the table alone decides: 3 attempts per call at 100% 503.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.throttle.enabled=false", "triage.clients.inventory.retry-budget.enabled=false",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=100000" })
class RetryBudgetOffTests extends LoopbackUpstream {

	@Test
	void everyCallMakesTheTablesAttempts() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));

		for (int i = 0; i < 200; i++) {
			catchThrowable(() -> this.inventory.item("1"));
		}

		assertThat(wireCount()).isEqualTo(600);
	}

}
