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

package dev.triage.poison;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The fingerprints of requests (SPEC §10): HMAC-SHA256 over method, full URL and body, keyed with a secret made
 * when this is created, once per running application, and never shown. The hex of a fingerprint in logs, the
 * endpoint and events reveals nothing about the URL or body it was made from (an unkeyed hash of a URL whose only
 * unknown is a short token would give the token away), and two applications, in one JVM or two, fingerprint the
 * same request differently.
 */
public final class Fingerprints {

	private static final String MAC_ALGORITHM = "HmacSHA256";

	private static final byte[] NO_BODY = new byte[0];

	private final Mac prototype;

	/** A {@link Mac} is not thread-safe: each thread works on its own copy of the keyed prototype. */
	private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::copyOfPrototype);

	/**
	 * Make a new secret.
	 */
	public Fingerprints() {
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		try {
			this.prototype = Mac.getInstance(MAC_ALGORITHM);
			this.prototype.init(new SecretKeySpec(key, MAC_ALGORITHM));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is required of every Java platform", ex);
		}
	}

	/**
	 * Return the fingerprint of a request, in hex.
	 * @param httpMethod the method
	 * @param url the full URL, query included
	 * @param body the body, may be {@code null}
	 * @return the hex digest
	 */
	public String of(String httpMethod, String url, byte[] body) {
		Mac mac = this.macs.get();
		mac.update(httpMethod.getBytes(StandardCharsets.UTF_8));
		mac.update((byte) ' ');
		mac.update(url.getBytes(StandardCharsets.UTF_8));
		mac.update((byte) '\n');
		mac.update((body != null) ? body : NO_BODY);
		return HexFormat.of().formatHex(mac.doFinal());
	}

	private Mac copyOfPrototype() {
		try {
			synchronized (this.prototype) {
				return (Mac) this.prototype.clone();
			}
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("HmacSHA256 of this platform cannot be copied", ex);
		}
	}

}
