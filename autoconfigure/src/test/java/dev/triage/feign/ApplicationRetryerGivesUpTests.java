/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.triage.feign;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.triage.UpstreamResponseException;
import dev.triage.policy.RetryDecision;
import dev.triage.support.LoopbackUpstream;
import dev.triage.support.RecordingObserver;
import dev.triage.support.RecordingObserverConfiguration;
import dev.triage.support.TestApplication;
import dev.triage.support.WithoutProtection;
import feign.RequestInterceptor;
import feign.RequestTemplate;
import feign.RetryableException;
import feign.Retryer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * An application's own retryer that gives up before the table does (two attempts where the 503 row allows
 * three): the call ends with the real answer, the retry it did not make is neither counted nor logged as one, and
 * the call says why ({@code retry_suppressed=retryer}). One whose wait ends a few milliseconds before the
 * deadline: no attempt starts that could only be cut, the call ends with the real answer
 * ({@code retry_suppressed=deadline}).
 */
@WithoutProtection
@SpringBootTest(classes = { TestApplication.class, RecordingObserverConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = {
				"spring.cloud.openfeign.client.config.inventory.retryer=dev.triage.feign.ApplicationRetryerGivesUpTests$TwoAttempts",
				"spring.cloud.openfeign.client.config.billing.retryer=dev.triage.feign.ApplicationRetryerGivesUpTests$UntilJustBeforeTheDeadline",
				"spring.cloud.openfeign.client.config.billing.request-interceptors[0]=dev.triage.feign.ApplicationRetryerGivesUpTests$FirstAttemptClock",
				"triage.clients.billing.deadline=1s" })
class ApplicationRetryerGivesUpTests extends LoopbackUpstream {

	@Autowired
	RecordingObserver observer;

	@Autowired
	MeterRegistry meters;

	@Test
	void aRetryTheApplicationsRetryerGaveUpOnIsNoRetry() {
		upstream.stubFor(get(urlPathEqualTo("/items/1")).willReturn(aResponse().withStatus(503)));
		this.observer.clear();

		Throwable thrown = catchThrowable(() -> this.inventory.item("1"));

		assertThat(thrown).isInstanceOf(UpstreamResponseException.class);
		assertThat(wireCount()).as("the retryer's two attempts, under the table's three").isEqualTo(2);
		assertThat(this.meters.find("triage.retries").tag("client", "inventory").counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum()).as("the one retry made").isEqualTo(1);
		assertThat(this.observer.calls).singleElement()
			.satisfies((call) -> assertThat(call.retrySuppressed()).isEqualTo(RetryDecision.Suppression.RETRYER));
	}

	@Test
	void noAttemptStartsWhenTheRetryersWaitEndsJustBeforeTheDeadline() {
		upstream.stubFor(get(urlPathEqualTo("/invoices/1")).willReturn(aResponse().withStatus(503)));
		this.observer.clear();

		Throwable thrown = catchThrowable(() -> this.billing.invoice("1"));

		assertThat(thrown).as("the real answer, not a cut attempt's timeout")
			.isInstanceOf(UpstreamResponseException.class);
		assertThat(upstream.findAll(getRequestedFor(urlPathEqualTo("/invoices/1")))).hasSize(1);
		assertThat(this.observer.calls).singleElement()
			.satisfies((call) -> assertThat(call.retrySuppressed()).isEqualTo(RetryDecision.Suppression.DEADLINE));
	}

	/** When the call's first attempt was about to be sent: after the call started. */
	public static class FirstAttemptClock implements RequestInterceptor {

		static final AtomicLong FIRST_ATTEMPT_NANOS = new AtomicLong();

		@Override
		public void apply(RequestTemplate template) {
			if (template.url().endsWith("/invoices/1")) {
				FIRST_ATTEMPT_NANOS.compareAndSet(0, System.nanoTime());
			}
		}

	}

	/** Waits until 3 ms before the 1 s deadline, counted from the first attempt (so at most 3 ms are left). */
	public static class UntilJustBeforeTheDeadline implements Retryer {

		@Override
		public void continueOrPropagate(RetryableException e) {
			long until = FirstAttemptClock.FIRST_ATTEMPT_NANOS.get() + TimeUnit.MILLISECONDS.toNanos(997);
			LockSupport.parkNanos(until - System.nanoTime());
			while (System.nanoTime() < until) {
				LockSupport.parkNanos(until - System.nanoTime());
			}
		}

		@Override
		public Retryer clone() {
			return new UntilJustBeforeTheDeadline();
		}

	}

	/** Two attempts, 10 ms apart. */
	public static class TwoAttempts extends Retryer.Default {

		public TwoAttempts() {
			super(10, 10, 2);
		}

		@Override
		public Retryer clone() {
			return new TwoAttempts();
		}

	}

}
