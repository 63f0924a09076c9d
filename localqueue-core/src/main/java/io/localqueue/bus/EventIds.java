package io.localqueue.bus;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * New event ids: UUIDs of version 7 (RFC 9562), whose first 48 bits are the Unix time in milliseconds and the rest
 * random. They are valid UUIDs wherever the Python library reads one, and they sort roughly by time, so the index
 * of event ids in a subscription's queue grows at its end instead of at random pages: with random (version 4) ids
 * every delivery of a large ingestion touched another page of that index. The layout is a few bit operations, so no
 * library is used for it.
 */
final class EventIds {

    private EventIds() {
    }

    /** Returns a new id for an event made at {@code epochMillis}. */
    static UUID next(long epochMillis) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (epochMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
