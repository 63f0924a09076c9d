package io.localqueue.spring.listener;

import io.localqueue.spring.QueueListener;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * How a class's {@link QueueListener} methods are found: the one lookup, for the bean post-processor at run time and
 * the ahead-of-time processor at build time; what each takes is {@link ListenerSignature}'s to read.
 */
final class QueueListenerMethods {

    private QueueListenerMethods() {
    }

    /** Returns the class's listener methods, inherited and interface ones included, with their merged annotation. */
    static Map<Method, QueueListener> find(Class<?> type) {
        return AnnotatedMethodCollector.find(type, QueueListener.class);
    }
}
