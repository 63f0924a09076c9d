package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.PropertyChecks.apply;

import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.web.LocalQueueExceptionHandler;
import java.time.Duration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * In a Spring MVC application, answers a request that met a full or closing queue with 503 and
 * {@code Retry-After} ({@link LocalQueueExceptionHandler}); backs off when the application defines its own handler
 * bean of that type.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocalQueueAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(LocalQueueTemplate.class)
public final class LocalQueueWebMvcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LocalQueueExceptionHandler localQueueExceptionHandler(LocalQueueProperties properties) {
        Duration retryAfter = properties.getWeb().getRetryAfter();
        return apply("localqueue.web.retry-after", retryAfter, () -> new LocalQueueExceptionHandler(retryAfter));
    }
}
