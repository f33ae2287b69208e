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

package dev.triage.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A listening socket on loopback that never accepts, its accept queue filled up: the kernel completes no new
 * connection to it, so a client's connect runs into its connect timeout (or its deadline).
 */
public final class FullBacklog implements AutoCloseable {

	private final ServerSocket socket;

	private final List<Socket> fillers = new ArrayList<>();

	private FullBacklog() throws IOException {
		this.socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		fill();
	}

	/**
	 * Open one.
	 * @return the socket, its queue full
	 * @throws IOException when it cannot be opened
	 */
	public static FullBacklog open() throws IOException {
		return new FullBacklog();
	}

	/**
	 * Return its URL.
	 * @return {@code http://127.0.0.1:<port>}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	/** Connects until the kernel stops completing handshakes for the never-accepting socket. */
	private void fill() throws IOException {
		for (int i = 0; i < 64; i++) {
			Socket filler = new Socket();
			try {
				filler.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.socket.getLocalPort()), 200);
				this.fillers.add(filler);
			}
			catch (SocketTimeoutException ex) {
				filler.close();
				return;
			}
		}
		throw new IllegalStateException("accept queue never filled up");
	}

	@Override
	public void close() throws IOException {
		for (Socket filler : this.fillers) {
			filler.close();
		}
		this.socket.close();
	}

}
