package dev.triage.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Adds a {@link RecordingObserver} to a test's context.
 */
@TestConfiguration(proxyBeanMethods = false)
public class RecordingObserverConfiguration {

	@Bean
	RecordingObserver recordingObserver() {
		return new RecordingObserver();
	}

}
