package pi.host.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit's group commit over a real SQLite file: grouping, order, all-or-nothing groups, shutdown. */
class GroupCommitTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Database db;
    private AuditStore store;
    private ExecutorService callers;
    /** Every group handed to the writer, as the tool call ids of its rows. */
    private final List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    /** Holds the first group's write until released, so that later appends queue behind it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean gateFirst = true;
    private GroupCommit<AuditRecord> commits;

    @BeforeEach
    void open() {
        db = Database.open(dir.resolve("pi-host.db"));
        store = new AuditStore(db);
        callers = Executors.newCachedThreadPool();
        commits = new GroupCommit<>("test-writer", rows -> {
            groups.add(rows.stream().map(AuditRecord::toolCallId).toList());
            if (gateFirst) {
                gateFirst = false;
                await(release);
            }
            store.appendAll(rows);
            events.add("written " + rows.stream().map(AuditRecord::toolCallId).toList());
        });
    }

    @AfterEach
    void close() throws InterruptedException {
        release.countDown();
        commits.close();
        callers.shutdownNow();
        callers.awaitTermination(10, TimeUnit.SECONDS);
        db.close();
    }

    @Test
    void everyGroupIsWrittenByTheOneWriterThreadAndAnAppendReturnsOnceItsRowIsStored() throws Exception {
        gateFirst = false;
        List<String> writerThreads = Collections.synchronizedList(new ArrayList<>());
        GroupCommit<AuditRecord> direct = new GroupCommit<>("the-writer", rows -> {
            writerThreads.add(Thread.currentThread().getName());
            store.appendAll(rows);
        });
        direct.append(row("c1", "Read"));
        assertThat(callIds()).containsExactly("c1");
        callers.submit(() -> {
            direct.append(row("c2", "Read"));
            return null;
        }).get(10, TimeUnit.SECONDS);
        assertThat(callIds()).containsExactly("c1", "c2");
        assertThat(writerThreads).containsExactly("the-writer", "the-writer");
        direct.close();
    }

    @Test
    void appendsThatArriveDuringAWriteShareTheNextTransactionInArrivalOrder() throws Exception {
        CompletableFuture<Void> first = appendAsync("a");
        Awaitility.await().atMost(BOUND).until(() -> groups.size() == 1);
        List<CompletableFuture<Void>> later = new ArrayList<>();
        for (String id : List.of("b", "c", "d")) {
            later.add(appendAsync(id));
            int queued = later.size();
            Awaitility.await().atMost(BOUND).until(() -> commits.queued() == queued);
        }
        assertThat(first).isNotDone();
        assertThat(later).noneMatch(CompletableFuture::isDone);

        release.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> f : later) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(groups).containsExactly(List.of("a"), List.of("b", "c", "d"));
        // rows are stored in arrival order: ascending ids
        assertThat(callIds()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aGroupThatFailsFailsEveryCallInItAndWritesNoneOfIt() throws Exception {
        CompletableFuture<Void> first = appendAsync("a");
        Awaitility.await().atMost(BOUND).until(() -> groups.size() == 1);
        CompletableFuture<Void> b = appendAsync("b");
        Awaitility.await().atMost(BOUND).until(() -> commits.queued() == 1);
        // tool_name is NOT NULL: this row makes its whole transaction fail
        CompletableFuture<Void> broken = appendAsync("broken", null);
        Awaitility.await().atMost(BOUND).until(() -> commits.queued() == 2);
        CompletableFuture<Void> d = appendAsync("d");
        Awaitility.await().atMost(BOUND).until(() -> commits.queued() == 3);

        release.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> f : List.of(b, broken, d)) {
            Awaitility.await().atMost(BOUND).until(f::isDone);
            assertThatThrownBy(f::join).hasCauseInstanceOf(StorageException.class);
        }
        assertThat(groups).containsExactly(List.of("a"), List.of("b", "broken", "d"));
        assertThat(callIds()).as("nothing of the failed group is stored").containsExactly("a");
    }

    @Test
    void closeWritesWhatIsQueuedThenRefusesNewAppends() throws Exception {
        CompletableFuture<Void> first = appendAsync("a");
        Awaitility.await().atMost(BOUND).until(() -> groups.size() == 1);
        CompletableFuture<Void> b = appendAsync("b");
        Awaitility.await().atMost(BOUND).until(() -> commits.queued() == 1);
        CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
            commits.close();
            events.add("closed");
        }, callers);

        release.countDown();
        closed.get(10, TimeUnit.SECONDS);
        first.get(10, TimeUnit.SECONDS);
        b.get(10, TimeUnit.SECONDS);
        assertThat(events).containsExactly("written [a]", "written [b]", "closed");

        assertThatThrownBy(() -> commits.append(row("late", "Read"))).isInstanceOf(StorageException.class)
                .hasMessageContaining("shutting down");
        assertThat(callIds()).containsExactly("a", "b");
    }

    private CompletableFuture<Void> appendAsync(String callId) {
        return appendAsync(callId, "Read");
    }

    private CompletableFuture<Void> appendAsync(String callId, String tool) {
        return CompletableFuture.runAsync(() -> {
            try {
                commits.append(row(callId, tool));
            } catch (StorageException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, callers);
    }

    /** The stored rows' call ids, oldest (lowest id) first. */
    private List<String> callIds() throws StorageException {
        List<String> ids = new ArrayList<>(store.query(null, null, null, 100).stream()
                .map(AuditRecord::toolCallId).toList());
        Collections.reverse(ids);
        return ids;
    }

    private static AuditRecord row(String callId, String tool) {
        return new AuditRecord(0, 1, "s1", "t", callId, tool, "trace-" + callId, null, "hash", "{}", null,
                "allow", "rule", "source", false, 0, 0.1, 0.1, 0.2, true, null);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first write");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
