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
package dev.triage.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import dev.triage.CallOutcome;
import dev.triage.CallRecord;
import dev.triage.FailureClass;
import dev.triage.OriginalResponse;
import dev.triage.Refusal;
import dev.triage.UpstreamResponseException;
import dev.triage.UpstreamUnavailableException;
import dev.triage.policy.RetryDecision;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The call log's window, on a clock the test moves: refusals and expected failures are written at most once per
 * client and code (or reason) per window, with the count since the previous line.
 */
@ExtendWith(OutputCaptureExtension.class)
class CallLogTests {

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	private final CallLog log = new CallLog(Duration.ofSeconds(10), this.nanos::get);

	private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

	@BeforeEach
	void infoOn() {
		this.logging.setLogLevel("dev.triage.calls", LogLevel.INFO);
	}

	@AfterEach
	void levelBack() {
		this.logging.setLogLevel("dev.triage.calls", null);
	}

	@Test
	void aThousandRefusalsInAWindowAreOneLineThenTheNextLineCountsThem(CapturedOutput output) {
		for (int i = 0; i < 1000; i++) {
			this.log.onCall(refused("orders", Refusal.BREAKER_OPEN));
		}
		assertThat(lines(output, "code=breaker_open")).singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").endsWith("count=1"));

		this.nanos.addAndGet(Duration.ofSeconds(9).toNanos());
		this.log.onCall(refused("orders", Refusal.BREAKER_OPEN));
		assertThat(lines(output, "code=breaker_open")).hasSize(1);

		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		this.log.onCall(refused("orders", Refusal.BREAKER_OPEN));
		assertThat(lines(output, "code=breaker_open")).hasSize(2).last()
			.satisfies((line) -> assertThat(line).endsWith("count=1001"));
	}

	@Test
	void eachClientAndReasonHasItsOwnWindow(CapturedOutput output) {
		for (int i = 0; i < 10; i++) {
			this.log.onCall(refused("orders", Refusal.BREAKER_OPEN));
			this.log.onCall(refused("orders", Refusal.PAUSED));
			this.log.onCall(refused("billing", Refusal.BREAKER_OPEN));
		}
		assertThat(lines(output, "client=orders")).hasSize(2);
		assertThat(lines(output, "client=orders").stream().filter((line) -> line.contains("code=paused")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO "));
		assertThat(lines(output, "client=billing")).hasSize(1);
	}

	@Test
	void expectedFailuresAreRateLimitedPerCodeAndAlertWorthyOnesAreNot(CapturedOutput output) {
		for (int i = 0; i < 100; i++) {
			this.log.onCall(failed("orders", "404", false));
			this.log.onCall(failed("orders", "503", true));
		}
		assertThat(lines(output, "code=404")).singleElement().satisfies((line) -> assertThat(line).contains(" INFO "));
		assertThat(lines(output, "code=503")).hasSize(100).allSatisfy((line) -> assertThat(line).contains("WARN")
			.doesNotContain("count="));

		this.nanos.addAndGet(Duration.ofSeconds(10).toNanos());
		this.log.onCall(failed("orders", "404", false));
		assertThat(lines(output, "code=404")).hasSize(2).last().satisfies((line) -> assertThat(line).endsWith("count=100"));
	}

	@Test
	void anExpectedFailureWhoseRetryWasSuppressedIsLoggedWithItsReasonInAWindowOfItsOwn(CapturedOutput output) {
		// A 429 logged earlier in the window must not hide why later 429s were not retried (SPEC §8.1: the
		// suppression reason goes to the call log).
		this.log.onCall(failed("orders", "429", false));
		for (int i = 0; i < 8; i++) {
			this.log.onCall(failed("orders", "429", false, RetryDecision.Suppression.THROTTLED));
			this.log.onCall(failed("orders", "429", false, RetryDecision.Suppression.BUDGET));
		}
		assertThat(lines(output, "code=429")).hasSize(3);
		assertThat(lines(output, "retry_suppressed=throttled")).singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ").endsWith("count=1"));
		assertThat(lines(output, "retry_suppressed=budget")).singleElement();

		this.nanos.addAndGet(Duration.ofSeconds(10).toNanos());
		this.log.onCall(failed("orders", "429", false, RetryDecision.Suppression.THROTTLED));
		assertThat(lines(output, "retry_suppressed=throttled")).hasSize(2)
			.last()
			.satisfies((line) -> assertThat(line).endsWith("count=8"));
		assertThat(lines(output, "code=429")).hasSize(4);
	}

	@Test
	void aZeroWindowLogsEveryCall(CapturedOutput output) {
		CallLog everyCall = new CallLog(Duration.ZERO, this.nanos::get);
		for (int i = 0; i < 5; i++) {
			everyCall.onCall(failed("orders", "404", false));
		}
		assertThat(lines(output, "code=404")).hasSize(5);
	}

	@Test
	void anErrorTypeFromTheBodyForgesNoLineAndAddsNoField(CapturedOutput output) {
		OriginalResponse response = new OriginalResponse("orders", "Orders#get()", "GET", "http://orders/x", 400, "",
				Map.of(), new byte[0], false, "evil\n2026-12-02 WARN forged x=y", Optional.empty(), 1, Duration.ZERO);
		UpstreamResponseException failure = new UpstreamResponseException(response);

		this.log.onCall(new CallRecord("orders", "Orders#get()", "GET http://orders/x", CallOutcome.FAILURE,
				FailureClass.CLIENT_ERROR_4XX, "400", 1, true, Duration.ofMillis(3), failure, null));

		assertThat(lines(output, "code=400")).singleElement()
			.satisfies((line) -> assertThat(line).contains(" error_type=\"evil 2026-12-02 WARN forged x=y\" "));
		assertThat(output.getAll()).doesNotContain("\n2026-12-02 WARN forged");
		assertThat(failure.getMessage()).contains("(type evil 2026-12-02 WARN forged x=y)").doesNotContain("\n");
		assertThat(response.toString()).doesNotContain("\n");
	}

	@Test
	void anErrorTypeHoldingAnEqualsSignOrAQuoteReadsAsOneField(CapturedOutput output) {
		for (String type : new String[] { "key=value", "say\"hi" }) {
			OriginalResponse response = new OriginalResponse("orders", "Orders#get()", "GET", "http://orders/x", 400,
					"", Map.of(), new byte[0], false, type, Optional.empty(), 1, Duration.ZERO);
			this.log.onCall(new CallRecord("orders", "Orders#get()", "GET http://orders/x", CallOutcome.FAILURE,
					FailureClass.CLIENT_ERROR_4XX, "400", 1, true, Duration.ofMillis(3),
					new UpstreamResponseException(response), null));
		}

		assertThat(lines(output, "code=400")).hasSize(2)
			.anySatisfy((line) -> assertThat(line).contains(" error_type=\"key=value\" "))
			.anySatisfy((line) -> assertThat(line).contains(" error_type=say'hi "));
	}

	@Test
	void aLongReasonPhraseIsShownShortAndOnOneLineInTheMessage() {
		String reason = "Overloaded\r\nX-Forged: 1 " + "x".repeat(10_000);
		OriginalResponse response = new OriginalResponse("orders", "Orders#get()", "GET", "http://orders/x", 503,
				reason, Map.of(), new byte[0], false, null, Optional.empty(), 1, Duration.ZERO);

		String message = new UpstreamResponseException(response).getMessage();

		assertThat(message).startsWith("orders Orders#get(): HTTP 503 Overloaded X-Forged: 1 x").doesNotContain("\n")
			.hasSizeLessThan(300);
		assertThat(response.reason()).as("the response keeps it whole").isEqualTo(reason);
	}

	@Test
	void aCredentialInTheReasonPhraseOrErrorTypeNeverReachesTheMessage() {
		// Applications log the exceptions they catch: the message redacts what the call log redacts.
		OriginalResponse response = new OriginalResponse("orders", "Orders#get()", "GET", "http://orders/x", 503,
				"token=s3cr3tReason Bearer abcDEF123456", Map.of(), new byte[0], false,
				"ghp_abcdefghijklmnopqrstuvwxyz0123456789", Optional.empty(), 1, Duration.ZERO);

		String message = new UpstreamResponseException(response).getMessage();

		assertThat(message).doesNotContain("s3cr3tReason", "abcDEF123456", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
			.contains("HTTP 503 token=[redacted] Bearer [redacted]", "(type [redacted])");
		assertThat(response.toString()).doesNotContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
		OriginalResponse urls = new OriginalResponse("orders", "Orders#get()", "GET", "http://orders/x", 400,
				"see http://u:abc123secret@h/x?key=k3y", Map.of(), new byte[0], false,
				"retry https://user:s3cret@upstream.example/retry", Optional.empty(), 1, Duration.ZERO);
		assertThat(new UpstreamResponseException(urls).getMessage()).as("URLs lose user info and query values")
			.doesNotContain("abc123secret", "k3y", "s3cret");
		assertThat(response.errorType()).as("classification reads it whole")
			.isEqualTo("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
	}

	@Test
	void aMethodKeyWithASpaceIsQuotedAsOneField(CapturedOutput output) {
		// a call made on a RestClient put under a client with forClient: its method key is the HTTP method and client
		this.log.onCall(new CallRecord("reports", "GET reports", "GET http://reports/x", CallOutcome.FAILURE,
				FailureClass.SERVER_ERROR_5XX, "503", 3, true, Duration.ofMillis(3), null, null));

		assertThat(lines(output, "code=503")).singleElement()
			.satisfies((line) -> assertThat(line).contains("triage call client=reports method=\"GET reports\" request="));
	}

	@Test
	void retryDelaysReadAsPeopleSayThem() {
		assertThat(CallLog.delay(Duration.ofMillis(250))).isEqualTo("250ms");
		assertThat(CallLog.delay(Duration.ofSeconds(2))).isEqualTo("2s");
		assertThat(CallLog.delay(Duration.ofMillis(1234))).isEqualTo("1.2s");
	}

	private static List<String> lines(CapturedOutput output, String containing) {
		return output.getAll().lines().filter((line) -> line.contains("triage call") && line.contains(containing)).toList();
	}

	private static CallRecord refused(String client, Refusal refusal) {
		return new CallRecord(client, "Orders#get()", null, CallOutcome.SHORT_CIRCUITED, FailureClass.REFUSED,
				refusal.tag(), 0, refusal == Refusal.BREAKER_OPEN, Duration.ofNanos(300),
				new UpstreamUnavailableException(client, "Orders#get()", refusal, "refused", 0), null);
	}

	private static CallRecord failed(String client, String code, boolean alert) {
		return failed(client, code, alert, null);
	}

	private static CallRecord failed(String client, String code, boolean alert, RetryDecision.Suppression suppressed) {
		return new CallRecord(client, "Orders#get()", "GET http://orders/x", CallOutcome.FAILURE,
				code.startsWith("4") ? FailureClass.CLIENT_ERROR_4XX : FailureClass.SERVER_ERROR_5XX, code, 1, alert,
				Duration.ofMillis(3), null, suppressed);
	}

}
