package io.localqueue.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.JobHandler;
import io.localqueue.spring.AckMode;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Decorators compose in order, the first one outermost. */
class JobHandlerDecoratorTest {

    private final QueueListenerEndpoint endpoint = endpoint();

    @Test
    void noDecoratorsLeaveTheHandlerAsItIs() {
        JobHandler<String> handler = job -> { };

        assertThat(JobHandlerDecorator.of(List.of())).isSameAs(JobHandlerDecorator.NONE);
        assertThat(JobHandlerDecorator.NONE.decorate(endpoint, handler)).isSameAs(handler);
    }

    @Test
    void theFirstDecoratorRunsOutermost() throws Exception {
        List<String> calls = new ArrayList<>();
        JobHandler<String> handler = JobHandlerDecorator.of(List.of(recording("outer", calls),
                recording("inner", calls))).decorate(endpoint, job -> calls.add("handler"));

        handler.handle(null);

        assertThat(calls).containsExactly("outer", "inner", "handler");
    }

    private static JobHandlerDecorator recording(String name, List<String> calls) {
        return new JobHandlerDecorator() {
            @Override
            public <T> JobHandler<T> decorate(QueueListenerEndpoint endpoint, JobHandler<T> handler) {
                return job -> {
                    calls.add(name);
                    handler.handle(job);
                };
            }
        };
    }

    private static QueueListenerEndpoint endpoint() {
        try {
            Method method = Listener.class.getDeclaredMethod("handle", String.class);
            return new QueueListenerEndpoint("listener.handle", "emails", new Listener(), method,
                    ListenerSignature.of(method, Listener.class, false, "listener.handle"), AckMode.AUTO, null,
                    List.of(), null, null, null, null);
        } catch (NoSuchMethodException impossible) {
            throw new AssertionError(impossible);
        }
    }

    static class Listener {
        void handle(String payload) {
        }
    }
}
