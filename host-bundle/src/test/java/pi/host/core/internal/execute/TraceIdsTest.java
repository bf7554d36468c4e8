package pi.host.core.internal.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TraceIdsTest {

    @Test
    void traceIdHasTheShapeOfARandomUuidWithoutDashes() {
        for (int i = 0; i < 1_000; i++) {
            String id = TraceIds.next();
            assertTrue(id.matches("tr_[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}"), id);
            // the same text UUID.randomUUID() gave: it reads back as a version-4, IETF-variant UUID
            String hex = id.substring(3);
            UUID uuid = UUID.fromString(hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16)
                    + "-" + hex.substring(16, 20) + "-" + hex.substring(20));
            assertEquals(4, uuid.version());
            assertEquals(2, uuid.variant());
            assertEquals(hex, uuid.toString().replace("-", ""));
        }
    }

    @Test
    void traceIdsAreUniqueAcrossThreads() throws InterruptedException {
        Set<String> ids = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 50_000; i++) {
                    ids.add(TraceIds.next());
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(200_000, ids.size());
    }
}
