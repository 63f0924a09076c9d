package io.localqueue.dashboard;

import static org.springframework.security.config.Customizer.withDefaults;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/** The two-role recipe of the docs: viewers read the dashboard, admins act on it; CSRF stays on. */
@SpringBootConfiguration
@EnableAutoConfiguration
class SecuredApp {

    @Bean
    SecurityFilterChain security(HttpSecurity http,
                                 @Value("${localqueue.dashboard.path:/localqueue}") String dashboard)
            throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers(HttpMethod.POST, dashboard + "/api/action").hasRole("QUEUE_ADMIN")
                        .requestMatchers(dashboard, dashboard + "/**").hasAnyRole("QUEUE_VIEWER", "QUEUE_ADMIN")
                        .anyRequest().authenticated())
                .formLogin(withDefaults())
                .httpBasic(withDefaults());
        return http.build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("viewer").password("{noop}viewer-pw").roles("QUEUE_VIEWER").build(),
                User.withUsername("admin").password("{noop}admin-pw").roles("QUEUE_ADMIN").build());
    }

    @Bean
    DashboardApps.Audit audit() {
        return new DashboardApps.Audit();
    }
}
