package dev.triage.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import dev.triage.overload.Overload;
import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RetryBudget;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

/**
 * What the overload checks add to a successful attempt, in memory: pause, throttle admission and accept, retry
 * budget deposit, no rate limiter. Reported as ns and bytes per attempt, and as a ratio to what the breaker
 * alone (Resilience4j's permission and success record, which every attempt already pays) costs in the same
 * run. Not part of {@code mvn verify}; run it with
 * {@code mvn -pl autoconfigure -am test -Dtest=OverloadChecksBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class OverloadChecksBenchmark {

	private static final int ROUNDS = 15;

	private static final int OPS = 200_000;

	private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	@Test
	void overloadChecksCostLittleNextToTheBreaker() {
		Overload overload = Overload.of(RetryBudget.Settings.DEFAULTS, AdaptiveThrottle.Settings.DEFAULTS,
				RateLimit.NONE, Clock.systemUTC());
		CircuitBreaker breaker = CircuitBreaker.of("bench", CircuitBreakerConfig.custom()
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
			.slidingWindowSize(10)
			.build());
		Runnable checks = () -> {
			if (overload.pause().isPaused() || !overload.throttle().admit() || !overload.rateLimit().acquire()) {
				throw new IllegalStateException("refused on the happy path");
			}
			overload.budget().onFirstAttempt();
			overload.throttle().onAccepted();
		};
		Runnable breakerOnly = () -> {
			if (!breaker.tryAcquirePermission()) {
				throw new IllegalStateException("breaker refused");
			}
			breaker.onSuccess(1_000, TimeUnit.NANOSECONDS);
		};
		double[] checkNanos = new double[ROUNDS];
		double[] breakerNanos = new double[ROUNDS];
		double[] checkBytes = new double[ROUNDS];
		for (int round = -3; round < ROUNDS; round++) {
			Measured c = measure(checks);
			Measured b = measure(breakerOnly);
			if (round >= 0) {
				checkNanos[round] = c.nanos();
				breakerNanos[round] = b.nanos();
				checkBytes[round] = c.bytes();
			}
		}
		double checkMedian = median(checkNanos);
		double breakerMedian = median(breakerNanos);
		System.out.printf("%nOverload checks per successful attempt (median of %d rounds x %d): %.1f ns, %.1f B%n",
				ROUNDS, OPS, checkMedian, median(checkBytes));
		System.out.printf("Resilience4j breaker permission + success in the same run: %.1f ns; ratio %.2fx%n%n",
				breakerMedian, checkMedian / breakerMedian);
		assertThat(overload.throttle().dropProbability()).isZero();
	}

	private static Measured measure(Runnable op) {
		long thread = Thread.currentThread().getId();
		long bytes = THREADS.getThreadAllocatedBytes(thread);
		long start = System.nanoTime();
		for (int i = 0; i < OPS; i++) {
			op.run();
		}
		long nanos = System.nanoTime() - start;
		return new Measured(nanos / (double) OPS, (THREADS.getThreadAllocatedBytes(thread) - bytes) / (double) OPS);
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	private record Measured(double nanos, double bytes) {
	}

}
