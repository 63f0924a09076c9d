package io.localqueue.spring;

import java.util.function.Supplier;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Runs work in a transaction of each propagation the transaction tests need; a bean, so the proxy applies. */
public class Transactions {

    @Transactional
    public <T> T required(Supplier<T> work) {
        return work.get();
    }

    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public <T> T requiresNew(Supplier<T> work) {
        return work.get();
    }

    @Transactional(propagation = Propagation.NESTED)
    public <T> T nested(Supplier<T> work) {
        return work.get();
    }

    @Transactional(propagation = Propagation.SUPPORTS)
    public <T> T supports(Supplier<T> work) {
        return work.get();
    }

    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    public <T> T notSupported(Supplier<T> work) {
        return work.get();
    }
}
