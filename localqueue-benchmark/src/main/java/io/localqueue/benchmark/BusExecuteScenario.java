package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.bus.CsvRow;
import io.localqueue.bus.CsvSource;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.SourceDefinition;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bus-execute-csv}: {@link EventBus#execute} of a CSV file of the profile's bus rows (a header and two
 * columns), in batches of 1,000, while four handlers acknowledge; timed from the call to its completion.
 */
public final class BusExecuteScenario extends PerModeScenario {

    private static final int CONCURRENCY = 4;

    @Override
    public String name() {
        return "bus-execute-csv";
    }

    @Override
    public boolean repeated() {
        return true;
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        int rows = context.profile().busRows();
        Path directory = context.newDirectory(name());
        Path csv = directory.resolve("users.csv");
        try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            out.write("external_id,name\n");
            for (int i = 1; i <= rows; i++) {
                out.write(i + ",user " + i + "\n");
            }
        }
        try (EventBus bus = BusBench.open(directory.resolve("queue"), mode, 1)) {
            bus.subscription("s1").handler(BusBench.Keyed.class, (event, ctx) -> null).config()
                    .concurrency(CONCURRENCY);
            SourceDefinition<CsvRow> users = bus.source(CsvSource.of(csv), "users",
                    row -> new BusBench.Keyed(Long.parseLong(row.get("external_id")), 0, row.get("name")));
            long start = System.nanoTime();
            ExecutionResult result = bus.execute(users);
            long elapsed = System.nanoTime() - start;
            return ScenarioResult.builder(name(), BusBench.GROUP, mode)
                    .throughput(result.itemsCommitted(), "rows", elapsed)
                    .detail("rows", rows)
                    .detail("batchSize", users.config().batchSize())
                    .detail("concurrency", CONCURRENCY)
                    .validation(Validation.check(result.succeeded() && result.deliveriesAcknowledged() == rows,
                            result.deliveriesAcknowledged() + " of " + rows + " acknowledged, "
                                    + result.deliveriesFailed() + " failed"))
                    .build();
        }
    }
}
