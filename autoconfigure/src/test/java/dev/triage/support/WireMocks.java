package dev.triage.support;

import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;

/**
 * WireMock servers bound to loopback only.
 */
public final class WireMocks {

	private WireMocks() {
	}

	public static WireMockExtension loopback() {
		return WireMockExtension.newInstance()
			.options(WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1").containerThreads(20))
			.build();
	}

}
