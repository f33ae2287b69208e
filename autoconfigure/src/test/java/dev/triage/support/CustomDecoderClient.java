package dev.triage.support;

import feign.Retryer;
import feign.codec.ErrorDecoder;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "custom", url = "${test.upstream.inventory}", configuration = CustomDecoderClient.OwnBeans.class)
public interface CustomDecoderClient {

	@GetMapping("/custom")
	String get();

	/** The user's own decoder and retryer for this client only. */
	class OwnBeans {

		@Bean
		ErrorDecoder ownErrorDecoder() {
			return (methodKey, response) -> new IllegalStateException("own decoder: " + response.status());
		}

		@Bean
		Retryer ownRetryer() {
			return Retryer.NEVER_RETRY;
		}

	}

}
