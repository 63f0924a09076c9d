package io.localqueue.spring.shutdown;

import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A child JVM running a Spring Boot application whose one listener works on a job with the application's own
 * {@code DataSource} until it is stopped. It prints events on stdout (its logs go to stderr): {@code STARTED} when
 * the job runs, {@code STOPPED <exception>} and {@code DATASOURCE open|closed} when the job ends, and
 * {@code NEXT_PHASE_STOPPED} when Spring stops the lifecycle phase after the listeners'. Arguments: the queue
 * directory, {@code spring.lifecycle.timeout-per-shutdown-phase}, and optionally
 * {@code localqueue.listener.shutdown-timeout}.
 */
public final class ShutdownChildApplication {

    static final String QUEUE = "work";

    private static PrintStream events = System.out;

    private ShutdownChildApplication() {
    }

    public static void main(String[] args) throws InterruptedException {
        events = System.out;
        System.setOut(System.err);
        List<String> properties = new ArrayList<>(List.of("localqueue.path=" + args[0],
                "spring.lifecycle.timeout-per-shutdown-phase=" + args[1],
                "spring.datasource.url=jdbc:h2:mem:app;DB_CLOSE_DELAY=-1", "spring.main.banner-mode=off",
                "spring.main.web-application-type=none"));
        if (args.length > 2) {
            properties.add("localqueue.listener.shutdown-timeout=" + args[2]);
        }
        new SpringApplicationBuilder(App.class).properties(properties.toArray(String[]::new)).run();
        event("READY");
        new CountDownLatch(1).await();
    }

    static synchronized void event(String line) {
        events.println(line);
        events.flush();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        LongJob longJob(JdbcTemplate jdbc, DataSource dataSource) {
            return new LongJob(jdbc, dataSource);
        }

        @Bean
        NextPhase nextPhase() {
            return new NextPhase();
        }
    }

    /** A job that keeps reading the application's database until something stops it. */
    static class LongJob {
        private final JdbcTemplate jdbc;
        private final DataSource dataSource;

        LongJob(JdbcTemplate jdbc, DataSource dataSource) {
            this.jdbc = jdbc;
            this.dataSource = dataSource;
        }

        @QueueListener(queue = QUEUE)
        void handle(String job) throws Exception {
            event("STARTED " + job);
            try {
                while (true) {
                    jdbc.queryForObject("SELECT 1", Integer.class);
                    Thread.sleep(20); // the job's own work between two queries
                }
            } catch (Exception stopped) {
                event("STOPPED " + stopped.getClass().getSimpleName());
                event("DATASOURCE " + (((HikariDataSource) dataSource).isClosed() ? "closed" : "open"));
                throw stopped;
            }
        }
    }

    /** Stands for the application's beans that Spring stops after the listeners' phase. */
    static class NextPhase implements SmartLifecycle {
        private volatile boolean running;

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            event("NEXT_PHASE_STOPPED");
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return QueueListenerEndpointRegistry.PHASE - 1;
        }
    }
}
