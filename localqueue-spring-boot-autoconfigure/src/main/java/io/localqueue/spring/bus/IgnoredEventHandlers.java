package io.localqueue.spring.bus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Warns, once per bean, of {@link io.localqueue.spring.EventHandler} methods that nothing will call because
 * {@code localqueue.bus.enabled} is false, so that switching the bus off never silently drops handlers.
 *
 * @since 0.1.0
 */
public class IgnoredEventHandlers implements BeanPostProcessor {

    private static final Logger log = LoggerFactory.getLogger(IgnoredEventHandlers.class);

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        var methods = EventHandlerMethods.find(AopUtils.getTargetClass(bean)).keySet();
        if (!methods.isEmpty()) {
            log.warn("Bean '{}' has @EventHandler methods {} that will never be called: localqueue.bus.enabled is "
                    + "false, so the application has no event bus", beanName,
                    methods.stream().map(method -> method.getName()).sorted().toList());
        }
        return bean;
    }
}
