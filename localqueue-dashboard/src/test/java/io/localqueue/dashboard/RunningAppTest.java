package io.localqueue.dashboard;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/** A test of one running application with the dashboard, on queues in a temporary directory, closed after. */
abstract class RunningAppTest {

    @TempDir
    Path dir;

    ConfigurableApplicationContext app;

    @AfterEach
    void closeApp() {
        if (app != null) {
            DashboardApps.close(app);
        }
    }
}
