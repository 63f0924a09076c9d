package io.localqueue.multiprocess;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.CsvRow;
import io.localqueue.bus.CsvSource;
import io.localqueue.bus.DispatchReceipt;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.SourceDefinition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The main class of child JVMs that run the event bus: a consumer of one subscription, or a producer dispatching
 * events with an identity; prints {@value QueueChild#READY}, waits for {@value QueueChild#GO} and reports one event per
 * line.
 */
final class BusChild {

    static final String CONSUME = "bus-consume";
    static final String DISPATCH_IDENTITIES = "bus-dispatch-identities";
    static final String EXECUTE_CSV = "bus-execute-csv";

    static final String IMPORTS = "imports";

    static final String SUBSCRIPTION = "orders";

    /** A row of the imported CSV, without identity, so that a row ingested twice would show as two deliveries. */
    @BusEvent(name = "row.imported")
    record RowImported(String externalId) {
    }

    /** The event both sides of the tests share. */
    @BusEvent(name = "order.placed", identity = "orderId")
    record OrderPlaced(String orderId, int amount) {
    }

    private final ChildProtocol protocol = ChildProtocol.onStdout();

    private BusChild() {
    }

    static BusTopology topology() {
        return BusTopology.builder().route(SUBSCRIPTION, OrderPlaced.class).route("audit", OrderPlaced.class)
                .route(IMPORTS, RowImported.class).build();
    }

    public static void main(String[] args) throws Exception {
        BusChild child = new BusChild();
        switch (args[0]) {
            case CONSUME -> child.consume(Path.of(args[1]), Integer.parseInt(args[2]),
                    Duration.ofMillis(Long.parseLong(args[3])));
            case DISPATCH_IDENTITIES -> child.dispatchIdentities(Path.of(args[1]), Integer.parseInt(args[2]));
            case EXECUTE_CSV -> child.executeCsv(Path.of(args[1]), Path.of(args[2]),
                    Duration.ofMillis(Long.parseLong(args[3])), Duration.ofMillis(Long.parseLong(args[4])));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.exit(0);
    }

    /** After GO, consumes the subscription until told STOP, printing HANDLED orderId eventId attempt per delivery. */
    private void consume(Path directory, int concurrency, Duration work) throws IOException {
        try (EventBus bus = EventBus.builder(directory).topology(topology()).build()) {
            AtomicInteger handled = new AtomicInteger();
            bus.subscription(SUBSCRIPTION).handler(OrderPlaced.class, (event, context) -> {
                LockSupport.parkNanos(work.toNanos());
                protocol.print(QueueChild.HANDLED, event.orderId(), context.eventId(), context.attempt());
                handled.incrementAndGet();
                return null;
            }).config().concurrency(concurrency);
            protocol.ready();
            bus.start();
            protocol.await(QueueChild.STOP);
            bus.stop();
            protocol.print(QueueChild.DONE, handled.get());
        }
    }

    /** The execution of a CSV import, as both the child and the test that resumes it define it. */
    static SourceDefinition<CsvRow> csvImport(EventBus bus, Path csv, Duration perRow) {
        SourceDefinition<CsvRow> definition = bus.source(CsvSource.of(csv), "rows", row -> {
            LockSupport.parkNanos(perRow.toNanos());
            return new RowImported(row.get("external_id"));
        });
        definition.config().batchSize(25);
        return definition;
    }

    /** Opens a bus with a short execution lease whose import handler acknowledges each row. */
    static EventBus importingBus(Path directory, Duration lease) {
        EventBus bus = EventBus.builder(directory).topology(topology()).executionLease(lease).build();
        bus.subscription(IMPORTS).handler(RowImported.class, (event, context) -> null);
        return bus;
    }

    /** After GO, executes the CSV import slowly (the test kills it on the way); prints DONE items. */
    private void executeCsv(Path directory, Path csv, Duration lease, Duration perRow) throws IOException {
        try (EventBus bus = importingBus(directory, lease)) {
            protocol.ready();
            ExecutionResult result = bus.execute(csvImport(bus, csv, perRow));
            protocol.print(QueueChild.DONE, result.itemsCommitted());
        }
    }

    /** After GO, dispatches orders 0..n-1 with this process's own event ids; prints PUT orderId inserted-count. */
    private void dispatchIdentities(Path directory, int count) throws IOException {
        try (EventBus bus = EventBus.builder(directory).topology(topology()).build()) {
            protocol.ready();
            for (int i = 0; i < count; i++) {
                DispatchReceipt receipt = bus.dispatch(new OrderPlaced("order-" + i, i));
                protocol.print(QueueChild.PUT, "order-" + i, receipt.insertedCount());
            }
            protocol.print(QueueChild.DONE, count);
        }
    }
}
