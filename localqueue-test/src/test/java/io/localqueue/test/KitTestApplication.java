package io.localqueue.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** The application the kit's tests start: localqueue's auto-configuration and one listener. */
@SpringBootConfiguration
@EnableAutoConfiguration
class KitTestApplication {

    @Bean
    Mailer mailer() {
        return new Mailer();
    }
}
