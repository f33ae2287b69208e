package dev.triage.bench;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.function.Supplier;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * What Triage costs per call, as a ratio against plain Spring Cloud OpenFeign measured in the same run against
 * the same loopback server: {@code inventory} is managed by Triage, {@code billing} is left to plain Feign.
 * Rounds alternate between the two so that machine noise hits both alike; the report is the ratio of medians.
 * Not part of {@code mvn verify} (the name matches no Surefire include); run it with
 * {@code mvn -pl autoconfigure -am test -Dtest=TriageOverheadBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "triage.clients.billing.enabled=false", "logging.level.dev.triage.calls=OFF",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=100000000" })
class TriageOverheadBenchmark extends LoopbackUpstream {

	private static final int ROUNDS = 20;

	private static final int CALLS_PER_ROUND = 250;

	@Test
	void triageCostsLittleNextToTheNetwork() {
		upstream.stubFor(any(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(200).withBody("ok")));
		upstream.stubFor(any(urlPathMatching("/invoices")).willReturn(aResponse().withStatus(200).withBody("ok")));
		double ok = ratio(() -> this.inventory.item("1"), () -> this.billing.invoices());

		upstream.resetAll();
		upstream.stubFor(any(urlPathMatching("/items/.*")).willReturn(aResponse().withStatus(404).withBody("{\"type\":\"missing\"}")));
		upstream.stubFor(any(urlPathMatching("/invoices")).willReturn(aResponse().withStatus(404).withBody("{\"type\":\"missing\"}")));
		double notFound = ratio(() -> swallow(() -> this.inventory.item("1")), () -> swallow(() -> this.billing.invoices()));

		System.out.printf("%nTriage per-call time / plain Feign per-call time (median of %d rounds x %d calls)%n",
				ROUNDS, CALLS_PER_ROUND);
		System.out.printf("  200 OK:        %.2fx%n", ok);
		System.out.printf("  404 + JSON:    %.2fx%n%n", notFound);
		assertThat(upstream.countRequestsMatching(WireMock.anyRequestedFor(WireMock.anyUrl()).build()).getCount())
			.as("each 404 reached the wire exactly once for both clients")
			.isEqualTo(2L * (ROUNDS + 2) * CALLS_PER_ROUND);
	}

	private static double ratio(Runnable managed, Runnable plain) {
		// two warm-up rounds each, then measured rounds, alternating
		for (int i = 0; i < 2; i++) {
			time(managed);
			time(plain);
		}
		double[] managedRounds = new double[ROUNDS];
		double[] plainRounds = new double[ROUNDS];
		for (int i = 0; i < ROUNDS; i++) {
			managedRounds[i] = time(managed);
			plainRounds[i] = time(plain);
		}
		System.out.printf("  median per call: Triage %.0f us, plain Feign %.0f us%n", median(managedRounds) / 1000,
				median(plainRounds) / 1000);
		return median(managedRounds) / median(plainRounds);
	}

	private static double time(Runnable call) {
		long start = System.nanoTime();
		for (int i = 0; i < CALLS_PER_ROUND; i++) {
			call.run();
		}
		return (System.nanoTime() - start) / (double) CALLS_PER_ROUND;
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	private static void swallow(Supplier<String> call) {
		try {
			call.get();
		}
		catch (RuntimeException expected) {
			// a 404 fails on both sides; only the time matters here
		}
	}

}
