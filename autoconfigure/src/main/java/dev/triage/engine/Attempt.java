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

import dev.triage.channel.Channel;

/**
 * One attempt of a call on its way to the wire: what was asked for (the request as built for the primary
 * channel), where it goes and when it started. Made by {@link Engine#begin}, handed back to the engine with
 * whatever the attempt ended in.
 */
public final class Attempt {

	final Call call;

	final String method;

	final String url;

	final byte[] body;

	Channel channel;

	int channelIndex;

	String fingerprint;

	String sentUrl;

	int number;

	long startNanos;

	Attempt(Call call, String method, String url, byte[] body) {
		this.call = call;
		this.method = method;
		this.url = url;
		this.body = body;
	}

	/**
	 * Return the URL of this attempt, on its channel.
	 * @return the URL to send to
	 */
	public String url() {
		return this.sentUrl;
	}

	/**
	 * Return the channel this attempt goes to.
	 * @return the channel
	 */
	public Channel channel() {
		return this.channel;
	}

	/**
	 * Return the call this attempt belongs to.
	 * @return the call
	 */
	public Call call() {
		return this.call;
	}

	/**
	 * Return this attempt's number among the call's attempts that reached the wire.
	 * @return the number, from 1
	 */
	public int number() {
		return this.number;
	}

	String requestLine() {
		return Requests.requestLine(this.method, this.sentUrl);
	}

}
