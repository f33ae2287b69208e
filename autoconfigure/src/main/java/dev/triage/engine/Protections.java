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

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

import dev.triage.AttemptOutcome;
import dev.triage.OriginalResponse;
import dev.triage.PoisonRequestEvent;
import dev.triage.Refusal;
import dev.triage.channel.Channel;
import dev.triage.channel.Channels;
import dev.triage.overload.AdaptiveThrottle;
import dev.triage.overload.ConcurrencyLimit;
import dev.triage.overload.RateLimit;
import dev.triage.overload.RetryBudget;
import dev.triage.poison.PoisonTracker;
import dev.triage.policy.BreakerOutcome;
import dev.triage.policy.RetryAfter;
import dev.triage.policy.Rule;

/**
 * Triage's protections, each a small {@link Protection}, in the order an attempt passes them: a poison request
 * is refused before anything else is asked; then the channel (not paused, its breaker permits); then adaptive
 * throttling and the rate limiter (a refusal there gives the breaker's permit back); then the bulkhead's permit,
 * held until the attempt is over; then the retry budget counts a first attempt; the recorder tells the observers
 * last.
 */
final class Protections {

	private Protections() {
	}

	static Protection[] of(ClientRuntime runtime) {
		return new Protection[] { new Poison(runtime), new ChannelAdmission(runtime),
				new Throttle(runtime.overload().throttle()),
				new RateLimited(runtime.overload().rateLimit(), runtime.deadline()),
				new Bulkhead(runtime.overload().concurrencyLimit(), runtime.deadline()),
				new Budget(runtime.overload().budget()),
				new Recorder(runtime) };
	}

	/**
	 * The upstream a refusal names: the client, and the channel when it is not the primary.
	 * @param client the client's name
	 * @param channel the channel
	 * @return the name
	 */
	static String upstreamName(String client, Channel channel) {
		return client + (OriginalResponse.PRIMARY.equals(channel.name()) ? "" : " channel " + channel.name());
	}

	/**
	 * Poison requests (SPEC §10): refused for their time to live; a request failing the same way while others
	 * succeed becomes one.
	 */
	static final class Poison implements Protection {

		private final ClientRuntime runtime;

		private final PoisonTracker poison;

		Poison(ClientRuntime runtime) {
			this.runtime = runtime;
			this.poison = runtime.poison();
		}

		@Override
		public RefusedException before(Attempt attempt) {
			if (!this.poison.tracking()) {
				return null;
			}
			attempt.fingerprint = fingerprint(attempt);
			if (this.poison.isPoisoned(attempt.fingerprint)) {
				return new RefusedException(Refusal.POISON,
						"request " + attempt.fingerprint.substring(0, 12) + "... is poison");
			}
			return null;
		}

		@Override
		public void answered(Attempt attempt, Outcome outcome) {
			if (outcome.raw || outcome.success()) {
				// A 2xx is told when its body has arrived (settled): one that breaks off or carries an error event
				// is no sign that the upstream answers.
				return;
			}
			if (outcome.responded && this.poison.isPoisonStatus(outcome.status)) {
				String print = (attempt.fingerprint != null) ? attempt.fingerprint : fingerprint(attempt);
				boolean poisoned = this.poison.onPoisonStatus(print, attempt.method, attempt.url,
						(failures) -> new PoisonRequestEvent(this.runtime.name(), attempt.call.methodKey(),
								attempt.method, Requests.sanitizeUrl(attempt.url), print, cappedBody(attempt),
								outcome.response.get(), failures, this.runtime.clock().instant()));
				if (poisoned) {
					attempt.call.poisoned(true);
				}
				return;
			}
			if (attempt.fingerprint != null) {
				this.poison.onOtherOutcome(attempt.fingerprint);
			}
		}

		@Override
		public void settled(Attempt attempt, Outcome outcome) {
			if (outcome.raw || !outcome.success()) {
				return;
			}
			this.poison.onSuccess(attempt.method, attempt.url);
			if (attempt.fingerprint != null) {
				this.poison.onOtherOutcome(attempt.fingerprint);
			}
		}

		/**
		 * The fingerprint of a request as built for the primary channel: method, full URL, body.
		 */
		private String fingerprint(Attempt attempt) {
			return this.poison.fingerprint(attempt.method, attempt.url, attempt.body);
		}

		private byte[] cappedBody(Attempt attempt) {
			byte[] body = attempt.body;
			if (body == null) {
				return new byte[0];
			}
			return (body.length <= this.runtime.maxBodyBytes()) ? body.clone()
					: Arrays.copyOf(body, this.runtime.maxBodyBytes());
		}

	}

	/**
	 * The channel of the attempt and its breaker (SPEC §6, §9): a first attempt goes to the first channel, in
	 * order, that is neither paused nor behind an open breaker; a retry goes where the retry decision sent it.
	 * Every attempt is recorded in its channel's breaker as its rule says; a valid {@code Retry-After} on a
	 * pausing rule pauses the channel that answered (SPEC §8.2).
	 */
	static final class ChannelAdmission implements Protection {

		private final ClientRuntime runtime;

		private final Channels channels;

		ChannelAdmission(ClientRuntime runtime) {
			this.runtime = runtime;
			this.channels = runtime.channels();
		}

		@Override
		public RefusedException before(Attempt attempt) {
			Call call = attempt.call;
			// Each channel's pause is read once: the refusal names the reason that held at that reading (a pause
			// ending between two readings must not turn into BREAKER_OPEN).
			if (call.tries() == 0) {
				Instant primaryPause = null;
				for (int i = 0; i < this.channels.all().size(); i++) {
					Channel candidate = this.channels.get(i);
					Instant until = candidate.pause().until();
					if (i == 0) {
						primaryPause = until;
					}
					if (until == null && candidate.breaker().tryAcquire()) {
						attempt.channel = candidate;
						attempt.channelIndex = i;
						call.channel(i);
						return null;
					}
				}
				return refuseOn(this.channels.primary(), primaryPause);
			}
			Channel channel = this.channels.get(call.channel());
			Instant until = call.pausedChannelItself(call.channel()) ? null : channel.pause().until();
			if (until != null || !channel.breaker().tryAcquire()) {
				return refuseOn(channel, until);
			}
			attempt.channel = channel;
			attempt.channelIndex = call.channel();
			return null;
		}

		private RefusedException refuseOn(Channel channel, Instant pausedUntil) {
			String upstream = upstreamName(this.runtime.name(), channel);
			if (pausedUntil != null) {
				return new RefusedException(Refusal.PAUSED,
						"upstream '" + upstream + "' asked to be paused until " + pausedUntil);
			}
			return new RefusedException(Refusal.BREAKER_OPEN,
					"circuit breaker of '" + upstream + "' is " + channel.breaker().state());
		}

		@Override
		public void refused(Attempt attempt) {
			attempt.channel.breaker().record(BreakerOutcome.IGNORE, 0, null);
		}

		@Override
		public void answered(Attempt attempt, Outcome outcome) {
			Rule rule = outcome.rule;
			if (rule == null || !outcome.responded || !rule.pause()) {
				return;
			}
			Optional<Duration> asked = RetryAfter.parse(outcome.retryAfter, this.runtime.clock());
			if (asked.isEmpty()) {
				return;
			}
			// A maintenance window longer than the rule's retry-after-max still pauses the upstream (the call
			// itself fails fast): for what it asked, at most pause-max; a value too large to represent is pause-max.
			Duration max = this.runtime.overload().pauseMax();
			Duration pause = (RetryAfter.isBeyondLimit(asked.get()) || asked.get().compareTo(max) > 0) ? max : asked.get();
			attempt.channel.pause().pauseFor(pause);
			attempt.call.pausedChannel(attempt.channelIndex);
		}

		@Override
		public void settled(Attempt attempt, Outcome outcome) {
			if (outcome.success()) {
				attempt.channel.breaker().record(BreakerOutcome.SUCCESS, outcome.durationNanos, null);
				return;
			}
			BreakerOutcome recorded = outcome.rule.breaker();
			attempt.channel.breaker()
				.record(recorded, outcome.durationNanos,
						(recorded == BreakerOutcome.FAILURE) ? outcome.answer.get() : null);
		}

	}

	/**
	 * Adaptive throttling (SPEC §8.3): refuses locally while the upstream rejects this client's load; an
	 * answer that is not a rejection for load counts as accepted.
	 */
	static final class Throttle implements Protection {

		private final AdaptiveThrottle throttle;

		Throttle(AdaptiveThrottle throttle) {
			this.throttle = throttle;
		}

		@Override
		public RefusedException before(Attempt attempt) {
			return this.throttle.admit() ? null
					: new RefusedException(Refusal.THROTTLED, "the upstream has been rejecting this client's load");
		}

		@Override
		public void refused(Attempt attempt) {
			this.throttle.onAnswered(false);
		}

		@Override
		public void answered(Attempt attempt, Outcome outcome) {
			this.throttle.onAnswered(outcome.responded && (outcome.success() || !outcome.rule.overload()));
		}

	}

	/**
	 * The static rate limit (SPEC §8.4): every attempt takes a permit.
	 */
	static final class RateLimited implements Protection {

		private final RateLimit rateLimit;

		private final Duration deadline;

		RateLimited(RateLimit rateLimit, Duration deadline) {
			this.rateLimit = rateLimit;
			this.deadline = (rateLimit != RateLimit.NONE) ? deadline : null;
		}

		@Override
		public RefusedException before(Attempt attempt) {
			if (this.deadline == null) {
				if (!this.rateLimit.acquire()) {
					return new RefusedException(Refusal.RATE_LIMITED,
							"rate limiter '" + this.rateLimit.name() + "' has no permit");
				}
				return null;
			}
			if (!this.rateLimit.acquire(this.deadline.toNanos() - attempt.call.elapsedNanos())) {
				return new RefusedException(Refusal.RATE_LIMITED, "rate limiter '" + this.rateLimit.name()
						+ "' has no permit within the call's deadline of " + this.deadline.toMillis() + "ms");
			}
			return deadlinePassed(attempt, this.deadline) ? new RefusedException(Refusal.RATE_LIMITED,
					waitedPastTheDeadline(this.deadline, "rate limiter '" + this.rateLimit.name() + "'")) : null;
		}

	}

	/**
	 * The concurrency limit (SPEC §8.5): every attempt runs inside one of the bulkhead's permits, held until the
	 * attempt is over (for a 2xx, until its body has been read).
	 */
	static final class Bulkhead implements Protection {

		private final ConcurrencyLimit limit;

		private final Duration deadline;

		Bulkhead(ConcurrencyLimit limit, Duration deadline) {
			this.limit = limit;
			this.deadline = (limit != ConcurrencyLimit.NONE) ? deadline : null;
		}

		@Override
		public RefusedException before(Attempt attempt) {
			if (!this.limit.acquire()) {
				return new RefusedException(Refusal.BULKHEAD_FULL, "bulkhead '" + this.limit.name() + "' is full");
			}
			if (deadlinePassed(attempt, this.deadline)) {
				this.limit.release();
				return new RefusedException(Refusal.BULKHEAD_FULL,
						waitedPastTheDeadline(this.deadline, "bulkhead '" + this.limit.name() + "'"));
			}
			return null;
		}

		@Override
		public void refused(Attempt attempt) {
			this.limit.release();
		}

		@Override
		public void settled(Attempt attempt, Outcome outcome) {
			this.limit.release();
		}

	}

	/**
	 * Whether the call's deadline passed while the attempt waited for a permit: Resilience4j's limiter and bulkhead
	 * wait as long as their own settings say, whatever the deadline. Sent then, the attempt would be cut before it
	 * left and reported as a wait for a pooled connection; it is refused as what held it back.
	 */
	private static boolean deadlinePassed(Attempt attempt, Duration deadline) {
		return deadline != null && attempt.call.elapsedNanos() >= deadline.toNanos();
	}

	private static String waitedPastTheDeadline(Duration deadline, String what) {
		return "the call's deadline of " + deadline.toMillis() + "ms passed while it waited for a permit of " + what;
	}

	/**
	 * The retry budget (SPEC §8.1): a call's first attempt deposits; retries withdraw in the retry decision.
	 */
	static final class Budget implements Protection {

		private final RetryBudget budget;

		Budget(RetryBudget budget) {
			this.budget = budget;
		}

		@Override
		public RefusedException before(Attempt attempt) {
			if (attempt.call.tries() == 0) {
				this.budget.onFirstAttempt();
			}
			return null;
		}

	}

	/**
	 * Tells the observers (meters, recent failures) about every attempt once it is over.
	 */
	static final class Recorder implements Protection {

		private final ClientRuntime runtime;

		Recorder(ClientRuntime runtime) {
			this.runtime = runtime;
		}

		@Override
		public RefusedException before(Attempt attempt) {
			return null;
		}

		@Override
		public void settled(Attempt attempt, Outcome outcome) {
			this.runtime.observer()
				.onAttempt(new AttemptOutcome(this.runtime.name(), outcome.status, outcome.failure,
						outcome.failureClass, outcome.rule, outcome.durationNanos, attempt.channel.name()));
		}

	}

}
