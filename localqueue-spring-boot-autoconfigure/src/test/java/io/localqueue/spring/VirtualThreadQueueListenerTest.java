package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * With {@code spring.threads.virtual.enabled=true}, listeners run on virtual threads where the JVM has them (Java
 * 21 and later) and on platform threads elsewhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadQueueListenerTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void listenersRunOnVirtualThreadsWhenEnabled() {
        Thread thread = threadThatHandledAJob("spring.threads.virtual.enabled=true");

        assertThat(isVirtual(thread)).isTrue();
        assertThat(thread.getName()).startsWith("localqueue-listener-");
    }

    @Test
    void listenersRunOnPlatformThreadsByDefault() {
        Thread thread = threadThatHandledAJob();

        assertThat(isVirtual(thread)).isFalse();
        assertThat(thread.getName()).startsWith("localqueue-worker-threads.handle-");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void beforeJava21TheSettingLeavesListenersOnPlatformThreads() {
        Thread thread = threadThatHandledAJob("spring.threads.virtual.enabled=true");

        assertThat(isVirtual(thread)).isFalse();
    }

    /** Starts a context with {@code properties}, puts one job and returns the thread its listener ran on. */
    private Thread threadThatHandledAJob(String... properties) {
        AtomicReference<Thread> handledOn = new AtomicReference<>();
        onTempDir().withPropertyValues(properties)
                .withBean("threads", ThreadRecordingListener.class, ThreadRecordingListener::new).run(context -> {
                    context.getBean(LocalQueueTemplate.class).put("threads", "where am I");

                    ThreadRecordingListener listener = context.getBean(ThreadRecordingListener.class);
                    await().atMost(BOUND).until(() -> !listener.threads.isEmpty());
                    handledOn.set(listener.threads.get(0));
                });
        assertThat(handledOn.get()).as("a listener ran").isNotNull();
        return handledOn.get();
    }

    /** {@code Thread.isVirtual()} exists from Java 21; this module compiles for 17. */
    private static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (NoSuchMethodException beforeJava21) {
            return false;
        } catch (ReflectiveOperationException failure) {
            throw new AssertionError(failure);
        }
    }

    static class ThreadRecordingListener {
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "threads")
        void handle(String message) {
            threads.add(Thread.currentThread());
        }
    }
}
