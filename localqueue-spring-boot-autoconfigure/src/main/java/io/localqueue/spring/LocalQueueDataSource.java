package io.localqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Marks the {@link javax.sql.DataSource} bean localqueue keeps its queues in when {@code localqueue.store} is
 * {@code postgresql}, as Quartz's {@code @QuartzDataSource} does: without the mark, the application's DataSource
 * (its primary one included) is never taken, and localqueue opens a pool of its own from
 * {@code localqueue.postgresql.url}.
 *
 * <pre>{@code
 * import com.zaxxer.hikari.HikariDataSource;
 * import io.localqueue.spring.LocalQueueDataSource;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * @LocalQueueDataSource
 * HikariDataSource queuesDataSource() {
 *     HikariDataSource pool = new HikariDataSource();
 *     pool.setJdbcUrl("jdbc:postgresql://db.internal/app");
 *     return pool;
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface LocalQueueDataSource {
}
