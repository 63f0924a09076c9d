package io.localqueue.test;

import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Forgets, before each test method, the deliveries recorded in its context so far, so that a drain reports only what
 * happened during that test even when the context is cached.
 */
final class LocalQueueTestExecutionListener implements TestExecutionListener {

    @Override
    public void beforeTestMethod(TestContext testContext) {
        if (testContext.hasApplicationContext()) {
            testContext.getApplicationContext().getBeanProvider(LocalQueueTestSupport.class)
                    .ifAvailable(LocalQueueTestSupport::forgetHandledJobs);
        }
    }
}
