package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueTemplate;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.sqlite.SQLiteJDBCLoader;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

@ExtendWith(OutputCaptureExtension.class)
class SqliteVersionCheckTest extends ContextRunnerTestBase {

    private static final String OLD_SQLITE = "3.50.3";

    @Test
    void refusesToStartOnASqliteOlderThan3513AndTheReportGivesTheFix() throws Exception {
        onTempDir().withUserConfiguration(OldSqlite.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new UnsafeSqliteVersionFailureAnalyzer().analyze(context.getStartupFailure());

            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("SQLite " + OLD_SQLITE).contains("3.51.3")
                    .contains(dir.resolve(LocalQueueDatabase.FILE_NAME).toRealPath().toString());
            String tested = SQLiteJDBCLoader.getVersion();
            assertThat(analysis.getAction())
                    .contains("<sqlite-jdbc.version>" + tested + "</sqlite-jdbc.version>")
                    .contains("io.localqueue:localqueue-bom")
                    .contains("localqueue.sqlite.allow-unsafe-version=true");
        });
        assertNoConnectionIsLeftOn(dir);
    }

    @Test
    void startsWithAWarningCarryingTheFixWhenTheRiskIsAccepted(CapturedOutput output) {
        onTempDir().withUserConfiguration(OldSqlite.class)
                .withPropertyValues("localqueue.sqlite.allow-unsafe-version=true").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(LocalQueueTemplate.class).put("q", "x")).isPositive();
                });
        assertThat(output).contains("WARN").contains("SQLite " + OLD_SQLITE)
                .contains("localqueue.sqlite.allow-unsafe-version=true")
                .contains("<sqlite-jdbc.version>" + SQLiteJDBCLoader.getVersion() + "</sqlite-jdbc.version>");
    }

    @Test
    void startsWithoutAWordOnTheDriverTheBuildTestsWith(CapturedOutput output) {
        onTempDir().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(SqliteVersionCheck.class);
            assertThat(context.getBean(LocalQueueDatabase.class).sqliteVersion()).isEqualTo(
                    SQLiteJDBCLoader.getVersion().substring(0, SQLiteJDBCLoader.getVersion().lastIndexOf('.')));
        });
        assertThat(output).doesNotContain("allow-unsafe-version").doesNotContain(SqliteVersionCheck.class.getName());
    }

    @Test
    void checksADatabaseTheApplicationDefinesToo() {
        Path own = dir.resolve("own");
        onTempDir().withUserConfiguration(OldSqlite.class)
                .withBean("myDatabase", LocalQueueDatabase.class, () -> LocalQueueDatabase.open(own))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(UnsafeSqliteVersionException.class);
                });
    }

    @Test
    void aVersionThatIsNotNumbersIsReportedAndDoesNotStopTheStart(CapturedOutput output) {
        onTempDir().withUserConfiguration(OddSqlite.class).run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("Cannot tell whether SQLite 'custom-build'");
    }

    @Test
    void aRealApplicationPrintsBootsFailureReportWithTheFix(CapturedOutput output) {
        SpringApplication application = new SpringApplication(OldSqliteApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(java.util.Map.of("localqueue.path", dir.toString(),
                "spring.main.banner-mode", "off"));

        assertThatThrownBy(application::run).hasRootCauseInstanceOf(UnsafeSqliteVersionException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("localqueue needs SQLite 3.51.3 or newer")
                .contains("<sqlite-jdbc.version>" + SQLiteJDBCLoader.getVersion() + "</sqlite-jdbc.version>")
                .contains("localqueue.sqlite.allow-unsafe-version=true");
    }

    /** Leaving WAL mode needs the only connection to the file: a refused start must have closed its own. */
    private static void assertNoConnectionIsLeftOn(Path directory) throws Exception {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve(LocalQueueDatabase.FILE_NAME));
             Statement statement = connection.createStatement();
             ResultSet mode = statement.executeQuery("PRAGMA journal_mode=DELETE")) {
            assertThat(mode.next()).isTrue();
            assertThat(mode.getString(1)).isEqualToIgnoringCase("delete");
        }
    }

    /** The seam: the check reads this version instead of the library's, so no old driver is needed. */
    @Configuration(proxyBeanMethods = false)
    static class OldSqlite {
        @Bean
        static SqliteVersionCheck oldSqliteVersionCheck(ObjectProvider<LocalQueueProperties> properties) {
            return new SqliteVersionCheck(properties, database -> OLD_SQLITE);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OddSqlite {
        @Bean
        static SqliteVersionCheck oddSqliteVersionCheck(ObjectProvider<LocalQueueProperties> properties) {
            return new SqliteVersionCheck(properties, database -> "custom-build");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(OldSqlite.class)
    @org.springframework.boot.autoconfigure.ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class OldSqliteApplication {
    }
}
