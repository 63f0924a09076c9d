package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.QueueStats;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * Listener beans created after the context started (lazy initialization, {@code @Lazy}) get their containers
 * started then, as spring-kafka's listeners do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LateQueueListenerTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private ConfigurableApplicationContext app;

    @AfterEach
    void closeApplication() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void underLazyInitializationAListenerStartsWhenItsBeanIsFirstUsed() {
        app = start(EagerApp.class, "spring.main.lazy-initialization=true");
        LocalQueueTemplate template = app.getBean(LocalQueueTemplate.class);
        template.put("lazy", "first");
        QueueListenerEndpointRegistry registry = app.getBean(QueueListenerEndpointRegistry.class);

        assertThat(app.getBeanFactory().containsSingleton("lazyListener")).as("not created yet").isFalse();
        assertThat(registry.getListenerContainer("lazyListener.handle")).isNull();
        assertThat(template.stats("lazy")).isEqualTo(new QueueStats(1, 0, 0, 0));

        LazyListener listener = app.getBean(LazyListener.class);

        QueueListenerContainer container = registry.getListenerContainer("lazyListener.handle");
        assertThat(container).isNotNull();
        assertThat(container.isRunning()).isTrue();
        await().atMost(BOUND).until(() -> listener.received.contains("first"));
        await().atMost(BOUND).until(() -> template.stats("lazy").equals(new QueueStats(0, 0, 1, 0)));
    }

    @Test
    void aLazyListenerBeanStartsWhenItIsFirstUsed() {
        app = start(LazyBeanApp.class);
        QueueListenerEndpointRegistry registry = app.getBean(QueueListenerEndpointRegistry.class);
        assertThat(registry.getListenerContainer("lazyListener.handle")).isNull();
        app.getBean(LocalQueueTemplate.class).put("lazy", "second");

        LazyListener listener = app.getBean(LazyListener.class);

        await().atMost(BOUND).until(() -> listener.received.contains("second"));
        assertThat(registry.getListenerContainer("lazyListener.handle").isRunning()).isTrue();
    }

    @Test
    void aLateListenerStopsWithTheContext() {
        app = start(LazyBeanApp.class);
        app.getBean(LazyListener.class);
        QueueListenerContainer container = app.getBean(QueueListenerEndpointRegistry.class)
                .getListenerContainer("lazyListener.handle");
        assertThat(container.isRunning()).isTrue();

        app.close();

        assertThat(container.isRunning()).isFalse();
    }

    private ConfigurableApplicationContext start(Class<?> source, String... properties) {
        return new SpringApplicationBuilder(source).web(WebApplicationType.NONE)
                .properties("localqueue.path=" + dir, "spring.main.banner-mode=off")
                .properties(properties)
                .run();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class EagerApp {
        @Bean
        LazyListener lazyListener() {
            return new LazyListener();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class LazyBeanApp {
        @Bean
        @Lazy
        LazyListener lazyListener() {
            return new LazyListener();
        }
    }

    static class LazyListener {
        final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "lazy")
        void handle(String message) {
            received.add(message);
        }
    }
}
