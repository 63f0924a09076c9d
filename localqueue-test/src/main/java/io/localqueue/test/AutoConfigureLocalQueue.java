package io.localqueue.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Sets a test's application context up for localqueue: a fresh temporary {@code localqueue.path}, deleted when the
 * context closes (Spring caches a context across test classes of one configuration, and they share its directory), a
 * {@link TestClock} that the queues run on unless the application has a {@code Clock} bean of its own, and a
 * {@link LocalQueueTestSupport} bean to inject. Works with {@code @SpringBootTest} and with test slices, to which it
 * adds localqueue's auto-configuration.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureLocalQueue
 * class EmailSenderTest {
 *     @Autowired LocalQueueTemplate queues;
 *     @Autowired LocalQueueTestSupport localQueue;
 *
 *     @Test
 *     void sendsTheEmail() {
 *         queues.put("emails", new Email("a@example.com", "Hi"));
 *         assertThat(localQueue.drain("emails", Duration.ofSeconds(10)))
 *                 .extracting(HandledJob::outcome).containsExactly(JobOutcome.ACKED);
 *     }
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("spring.test.localqueue")
public @interface AutoConfigureLocalQueue {

    /**
     * Whether {@code LocalQueueTemplate}'s puts run the queue's listeners on the calling thread before they return,
     * instead of listeners consuming on threads of their own (which then do not start). Jobs still go through the
     * queue file, so retries and dead letters happen as in production; a retry delayed into the future runs on a
     * later put or drain once the clock has passed it. Mapped to {@code spring.test.localqueue.inline}.
     *
     * @return true to run listeners inline; false, the default, leaves them on their own threads
     * @since 0.1.0
     */
    boolean inline() default false;
}
