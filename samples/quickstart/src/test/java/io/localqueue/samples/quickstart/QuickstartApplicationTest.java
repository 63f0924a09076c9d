package io.localqueue.samples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickstartApplicationTest {

    @TempDir
    Path data;

    @Test
    void sendsTwoEmailsAndDeadLettersTheUndeliverableOne() {
        QueueStats stats = QuickstartApplication.run(data);

        assertThat(stats).isEqualTo(new QueueStats(0, 0, 2, 1));
        try (SimpleQueue<QuickstartApplication.Email> emails =
                     SimpleQueue.builder(data, QuickstartApplication.Email.class).name("emails").build()) {
            assertThat(emails.listFailed()).singleElement().satisfies(failed -> {
                assertThat(failed.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
                assertThat(failed.attempts()).isEqualTo(4);
                assertThat(failed.data().to()).isEqualTo("bounce@invalid");
            });
        }
    }

    @Test
    void secondRunAddsNothingBecauseJobIdsDeduplicate() {
        QuickstartApplication.run(data);

        QueueStats again = QuickstartApplication.run(data);

        assertThat(again).isEqualTo(new QueueStats(0, 0, 2, 1));
    }
}
