package io.localqueue.spring;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;

/**
 * The application database of the transaction tests: an H2 database of its own with an {@code orders} table,
 * Spring-managed transactions over it, and {@link Transactions} to run work in them.
 */
@Configuration(proxyBeanMethods = false)
@EnableTransactionManagement
public class ShopDatabase {

    @Bean
    DataSource shopDataSource() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:shop-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return h2;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource shopDataSource) {
        return new DataSourceTransactionManager(shopDataSource);
    }

    @Bean
    JdbcTemplate shopJdbc(DataSource shopDataSource) {
        JdbcTemplate jdbc = new JdbcTemplate(shopDataSource);
        jdbc.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, item VARCHAR(100) NOT NULL)");
        return jdbc;
    }

    @Bean
    Transactions transactions() {
        return new Transactions();
    }
}
