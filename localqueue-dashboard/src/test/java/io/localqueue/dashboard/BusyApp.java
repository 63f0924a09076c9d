package io.localqueue.dashboard;

import io.localqueue.spring.QueueListener;
import io.localqueue.spring.Recurring;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An application with something in every section of the page: a listener, a recurring job and a subscription. */
@Configuration(proxyBeanMethods = false)
class BusyApp {

    @Bean
    Reports reports() {
        return new Reports();
    }

    static final class Reports {

        @QueueListener(queue = "reports", id = "report-writer", concurrency = "2")
        void write(Map<String, Object> report) {
        }

        @Recurring(id = "nightly-report", cron = "0 0 2 * * *", zone = "Europe/Paris", queue = "reports")
        void nightly() {
        }
    }
}
