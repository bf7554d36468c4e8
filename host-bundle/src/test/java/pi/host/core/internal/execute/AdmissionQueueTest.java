package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdmissionQueueTest {

    // a new thread per task: locks are per thread, so a reused pool thread that still holds a write
    // lock could take the read lock of the same path and hide the exclusion under test
    private final ExecutorService pool = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE, 0,
            TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>());
    private final Path file = Path.of("/w/a.txt");

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void mutationsOfOneSessionRunOneAtATime() throws Exception {
        AdmissionQueue q = new AdmissionQueue(8);
        AdmissionQueue.Ticket first = q.admit("s", true, lock(null, true));
        CompletableFuture<AdmissionQueue.Ticket> second = CompletableFuture.supplyAsync(() -> admit(q, "s", true,
                null, true), pool);
        assertThat(waitsFor(second)).isTrue();
        first.close();
        second.get(5, TimeUnit.SECONDS).close();
    }

    @Test
    void mutationsOfDifferentSessionsDoNotWaitForEachOther() throws Exception {
        AdmissionQueue q = new AdmissionQueue(8);
        try (AdmissionQueue.Ticket a = q.admit("s1", true, lock(null, true));
                AdmissionQueue.Ticket b = q.admit("s2", true, lock(null, true))) {
            assertThat(a).isNotNull();
            assertThat(b).isNotNull();
        }
    }

    @Test
    void readsOfAPathShareButAWriteExcludesThem() throws Exception {
        AdmissionQueue q = new AdmissionQueue(8);
        Holder r1 = new Holder(q, "s1", false, file, false);
        Holder r2 = new Holder(q, "s2", false, file, false);
        r1.acquired.get(5, TimeUnit.SECONDS);
        r2.acquired.get(5, TimeUnit.SECONDS); // shared: the second read did not wait
        Holder write = new Holder(q, "s3", true, file, true);
        assertThat(waitsFor(write.acquired)).isTrue();
        r1.release();
        assertThat(waitsFor(write.acquired)).isTrue();
        r2.release();
        write.acquired.get(5, TimeUnit.SECONDS);
        Holder read = new Holder(q, "s1", false, file, false);
        assertThat(waitsFor(read.acquired)).isTrue();
        write.release();
        read.acquired.get(5, TimeUnit.SECONDS);
        read.release();
    }

    /** Takes a ticket on its own thread and gives it back there when told: locks belong to threads. */
    private static final class Holder {
        final CompletableFuture<Void> acquired = new CompletableFuture<>();
        private final CountDownLatch release = new CountDownLatch(1);
        private final CompletableFuture<Void> released = new CompletableFuture<>();

        Holder(AdmissionQueue q, String session, boolean mutates, Path path, boolean exclusive) {
            Thread t = new Thread(() -> {
                try (AdmissionQueue.Ticket ticket = q.admit(session, mutates, lock(path, exclusive))) {
                    acquired.complete(null);
                    release.await();
                } catch (InterruptedException e) {
                    acquired.completeExceptionally(e);
                }
                released.complete(null);
            });
            t.setDaemon(true);
            t.start();
        }

        void release() throws Exception {
            release.countDown();
            released.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aQueuedCallIsCancelledByInterruptAndHoldsNothing() throws Exception {
        AdmissionQueue q = new AdmissionQueue(1);
        AdmissionQueue.Ticket holder = q.admit("s1", false, lock(null, false));
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            started.countDown();
            try {
                q.admit("s2", true, lock(file, true)).close();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        waiter.start();
        started.await();
        await().atMost(Duration.ofSeconds(5)).until(() -> waiter.getState() == Thread.State.WAITING);
        waiter.interrupt();
        waiter.join(5000);
        assertThat(interrupted).isTrue();
        holder.close();
        // the cancelled waiter took neither the session permit nor a slot
        try (AdmissionQueue.Ticket again = q.admit("s2", true, lock(file, true))) {
            assertThat(again).isNotNull();
        }
    }

    @Test
    void globalSlotsBoundConcurrency() throws Exception {
        AdmissionQueue q = new AdmissionQueue(2);
        AdmissionQueue.Ticket a = q.admit("s1", false, lock(null, false));
        AdmissionQueue.Ticket b = q.admit("s2", false, lock(null, false));
        CompletableFuture<AdmissionQueue.Ticket> c = CompletableFuture.supplyAsync(() -> admit(q, "s3", false, null,
                false), pool);
        assertThat(waitsFor(c)).isTrue();
        a.close();
        c.get(5, TimeUnit.SECONDS).close();
        b.close();
    }

    @Test
    void pathLocksAreForgottenWhenReleased() throws Exception {
        PathMutex m = new PathMutex();
        m.lock(file, true).close();
        assertThat(m.size()).isZero();
        assertThatThrownBy(() -> {
            Thread.currentThread().interrupt();
            m.lock(Path.of("/x"), true);
        }).isInstanceOf(InterruptedException.class);
        assertThat(m.size()).isZero();
    }

    /** True when the future is still waiting after the other threads had every chance to run. */
    private static boolean waitsFor(CompletableFuture<?> f) {
        try {
            f.get(200, TimeUnit.MILLISECONDS);
            return false;
        } catch (java.util.concurrent.TimeoutException e) {
            return true;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static java.util.List<PathMutex.Lock> lock(Path p, boolean exclusive) {
        return p == null ? java.util.List.of() : java.util.List.of(new PathMutex.Lock(p, exclusive));
    }

    private static AdmissionQueue.Ticket admit(AdmissionQueue q, String s, boolean mutates, Path p, boolean excl) {
        try {
            return q.admit(s, mutates, lock(p, excl));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
