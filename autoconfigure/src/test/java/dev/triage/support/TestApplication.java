package dev.triage.support;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.openfeign.EnableFeignClients;

@SpringBootConfiguration
@EnableAutoConfiguration
@EnableFeignClients(clients = { InventoryClient.class, BillingClient.class })
public class TestApplication {

}
