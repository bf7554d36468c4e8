package pi.host.tools.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CommandThreadsTest {

    private final CommandThreads threads = new CommandThreads();

    @AfterEach
    void close() {
        threads.close();
    }

    /** Pins: a command after another one reuses the idle thread instead of starting a new one. */
    @Test
    void anIdleThreadServesTheNextTask() throws Exception {
        CompletableFuture<Thread> first = new CompletableFuture<>();
        threads.execute("first", () -> first.complete(Thread.currentThread()));
        Thread t = first.get(10, TimeUnit.SECONDS);
        // the task completed its future before it returned to the pool: wait until it waits for work
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> t.getState() == Thread.State.TIMED_WAITING);
        CompletableFuture<Thread> second = new CompletableFuture<>();
        threads.execute("second", () -> second.complete(Thread.currentThread()));
        assertThat(second.get(10, TimeUnit.SECONDS)).isSameAs(t);
    }

    @Test
    void aTaskRunsUnderItsNameAndTheThreadGetsItsPoolNameBack() throws Exception {
        CompletableFuture<String> during = new CompletableFuture<>();
        CompletableFuture<Thread> thread = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        threads.execute("pi-bash-out-42", () -> {
            thread.complete(Thread.currentThread());
            during.complete(Thread.currentThread().getName());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(during.get(10, TimeUnit.SECONDS)).isEqualTo("pi-bash-out-42");
        release.countDown();
        Thread t = thread.get();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> t.getName().startsWith("pi-command-"));
        assertThat(t.isDaemon()).isTrue();
    }

    /** Pins: a pump's reused read buffers carry nothing from the previous stream into the next. */
    @Test
    void aPumpOnAReusedThreadStartsClean() throws Exception {
        OutputBuffer first = new OutputBuffer(100, 100);
        OutputBuffer second = new OutputBuffer(100, 100);
        // the first stream ends inside a three-byte character: its bytes must not reach the second
        byte[] cutShort = {'x', (byte) 0xe2, (byte) 0x82};
        CompletableFuture<Thread> ran = new CompletableFuture<>();
        threads.execute("one", () -> {
            new StreamPump(new ByteArrayInputStream(cutShort), first, null).run();
            new StreamPump(new ByteArrayInputStream("ok €".getBytes(StandardCharsets.UTF_8)), second, null).run();
            ran.complete(Thread.currentThread());
        });
        ran.get(10, TimeUnit.SECONDS);
        assertThat(first.text()).isEqualTo("x\uFFFD");
        assertThat(second.text()).isEqualTo("ok €");
    }

    @Test
    void aStartedPumpCompletesWhenItsStreamEnds() throws Exception {
        OutputBuffer out = new OutputBuffer(100, 100);
        StreamPump pump = new StreamPump(new ByteArrayInputStream("done".getBytes(StandardCharsets.UTF_8)), out, null)
                .start(threads, "pump");
        pump.done().get(10, TimeUnit.SECONDS);
        assertThat(pump.await(0)).isTrue();
        assertThat(out.text()).isEqualTo("done");
    }
}
