package io.localqueue.spring.listener;

import io.localqueue.Acknowledgement;
import io.localqueue.Job;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;

/**
 * What a {@code @QueueListener} method takes and how it is called: the payload type it decodes to (generic type
 * arguments resolved against the bean's class), whether it takes payloads or {@code Job}s, one or a list of them,
 * and whether an {@link Acknowledgement} comes too. A signature outside these shapes, or a type left with an
 * unresolvable type variable, is refused with a message naming the method.
 *
 * @since 0.1.0
 */
public final class ListenerSignature {

    private final Type payloadType;
    private final boolean takesJob;
    private final boolean batch;
    private final int acknowledgementIndex;
    private final int parameterCount;

    private ListenerSignature(Type payloadType, boolean takesJob, boolean batch, int acknowledgementIndex,
                              int parameterCount) {
        this.payloadType = payloadType;
        this.takesJob = takesJob;
        this.batch = batch;
        this.acknowledgementIndex = acknowledgementIndex;
        this.parameterCount = parameterCount;
    }

    /**
     * Reads a listener method's signature.
     *
     * @param method the annotated method
     * @param beanClass the bean's class, which binds type variables of the class declaring the method
     * @param batch whether the listener takes batches
     * @param where how messages name the method, such as "bean.method"
     * @return the signature
     * @throws IllegalStateException when the method's parameters fit no listener shape
     */
    public static ListenerSignature of(Method method, Class<?> beanClass, boolean batch, String where) {
        int count = method.getParameterCount();
        int acknowledgement = -1;
        int data = -1;
        for (int i = 0; i < count; i++) {
            Class<?> raw = method.getParameterTypes()[i];
            if (Acknowledgement.class.equals(raw) && acknowledgement < 0) {
                acknowledgement = i;
            } else if (data < 0) {
                data = i;
            } else {
                data = -2;
            }
        }
        if (batch) {
            if (count != 1 || data != 0 || !List.class.equals(method.getParameterTypes()[0])) {
                throw refused(where, "is a batch listener, so it must take exactly one parameter, List<T> or "
                        + "List<Job<T>> (a batch is settled through BatchFailedException, not an Acknowledgement)");
            }
            ResolvableType element = parameter(method, 0, beanClass).getGeneric(0);
            return shaped(element, true, -1, 1, where);
        }
        if (data < 0 || count > 2) {
            throw refused(where, "must take the payload or Job<T>, and with MANUAL acknowledgement also an "
                    + "Acknowledgement; it takes " + count + " parameter(s)");
        }
        return shaped(parameter(method, data, beanClass), false, acknowledgement, count, where);
    }

    private static ListenerSignature shaped(ResolvableType type, boolean batch, int acknowledgement, int count,
                                            String where) {
        boolean takesJob = Job.class.equals(type.resolve());
        ResolvableType payload = takesJob ? type.getGeneric(0) : type;
        return new ListenerSignature(concrete(payload, payload, where), takesJob, batch, acknowledgement, count);
    }

    private static ResolvableType parameter(Method method, int index, Class<?> beanClass) {
        return ResolvableType.forMethodParameter(method, index, beanClass);
    }

    /** The type with every type argument resolved to a class, as a reflective type Jackson can bind. */
    private static Type concrete(ResolvableType type, ResolvableType whole, String where) {
        Class<?> raw = type.resolve();
        if (raw == null) {
            throw refused(where, "has payload type " + whole + " whose " + type + " cannot be resolved to a class; "
                    + "declare the payload type with actual types");
        }
        if (!type.hasGenerics()) {
            return raw;
        }
        ResolvableType[] arguments = type.getGenerics();
        ResolvableType[] resolved = new ResolvableType[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            resolved[i] = ResolvableType.forType(concrete(arguments[i], whole, where));
        }
        return ResolvableType.forClassWithGenerics(raw, resolved).getType();
    }

    private static IllegalStateException refused(String where, String problem) {
        return new InvalidHandlerMethodException("@QueueListener", where, problem);
    }

    /**
     * Returns the type payloads decode to.
     *
     * @return a class, or a parameterized type whose arguments are all resolved
     */
    public Type payloadType() {
        return payloadType;
    }

    /**
     * Returns whether the method takes {@code Job<T>} (or a list of them) rather than payloads.
     *
     * @return true for jobs
     */
    public boolean takesJob() {
        return takesJob;
    }

    /**
     * Returns whether the method takes a list of jobs.
     *
     * @return true for a batch listener
     */
    public boolean batch() {
        return batch;
    }

    /**
     * Returns whether the method takes an {@link Acknowledgement}, which only manual acknowledgement provides.
     *
     * @return true when it does
     */
    public boolean takesAcknowledgement() {
        return acknowledgementIndex >= 0;
    }

    /** The arguments for one job, and its acknowledgement when the method takes one. */
    Object[] arguments(Job<?> job, @Nullable Acknowledgement acknowledgement) {
        Object[] arguments = new Object[parameterCount];
        for (int i = 0; i < parameterCount; i++) {
            arguments[i] = i == acknowledgementIndex ? acknowledgement : takesJob ? job : job.data();
        }
        return arguments;
    }

    /** The argument for a batch: the jobs, or their payloads, in claim order. */
    Object[] arguments(List<? extends Job<?>> jobs) {
        List<?> argument = takesJob ? List.copyOf(jobs) : jobs.stream().map(Job::data).toList();
        return new Object[] {argument};
    }

    @Override
    public String toString() {
        return (batch ? "List<" : "") + (takesJob ? "Job<" + payloadType.getTypeName() + ">"
                : payloadType.getTypeName()) + (batch ? ">" : "") + (takesAcknowledgement() ? ", Acknowledgement" : "");
    }
}
