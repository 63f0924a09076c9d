package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.spring.ContextRunnerTestBase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A PostgreSQL store that cannot be reached at start ends it with Boot's failure report: the server's own words,
 * where localqueue looked, and the properties to check, never the password.
 */
class UnavailableStoreFailureTest extends ContextRunnerTestBase {

    @Test
    void aServerThatRefusesIsReportedWithTheSettingsToCheck() {
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.url=jdbc:postgresql://"
                        + "127.0.0.1:1/app?connectTimeout=2", "localqueue.postgresql.username=app",
                        "localqueue.postgresql.password=s3cret")
                .run(context -> {
                    FailureAnalysis analysis = new UnavailableStoreFailureAnalyzer()
                            .analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("localqueue could not open its queues in jdbc:postgresql://127.0.0.1:1/app")
                            .contains("cannot connect to jdbc:postgresql://127.0.0.1:1/app?connectTimeout=2 as app")
                            .doesNotContain("s3cret");
                    assertThat(analysis.getAction()).contains("localqueue.postgresql.url, localqueue.postgresql"
                            + ".username and localqueue.postgresql.password").doesNotContain("s3cret");
                });
    }
}
