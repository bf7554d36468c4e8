package pi.host.mcpserver.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Call results reach the SDK's response path one at a time, whatever thread ends each call. */
class SerialAnswersTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final SerialAnswers answers = new SerialAnswers(true);
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    /** Stands for the SDK's synchronous path from the handler's Mono to its outbound sink; the first answer stays in it. */
    private final Consumer<String> responsePath = answer -> {
        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
        try {
            if (answer.equals("first")) {
                release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inside.decrementAndGet();
        }
    };

    /**
     * Pins the dropped answer: a second call's result waits (parked) while the first is still inside the
     * SDK's sink, instead of entering it beside the first (where the SDK spins for 100 ms and then drops it).
     */
    @Test
    void aSecondAnswerWaitsWhileTheFirstIsInTheSdk() throws InterruptedException {
        Mono.<String>create(sink -> new Thread(() -> answers.success(sink, "first"), "answer-1").start())
                .subscribe(responsePath);
        await().atMost(BOUND).until(() -> inside.get() == 1);

        AtomicReference<String> got = new AtomicReference<>();
        Thread second = new Thread(() -> Mono.<String>create(sink -> answers.success(sink, "second"))
                .subscribe(responsePath.andThen(got::set)), "answer-2");
        second.start();
        await().atMost(BOUND).until(() -> second.getState() == Thread.State.BLOCKED);
        assertThat(inside.get()).as("only the first answer is in the response path").isEqualTo(1);

        release.countDown();
        second.join(BOUND.toMillis());
        assertThat(got.get()).isEqualTo("second");
        assertThat(most.get()).isEqualTo(1);
    }

    /** A call that failed is handed over the same way, as the handler's error. */
    @Test
    void aFailureIsHandedOverAsTheError() {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        IllegalStateException boom = new IllegalStateException("boom");
        Mono.<String>create(sink -> answers.error(sink, boom)).subscribe(v -> { }, failed::set);
        assertThat(failed.get()).isSameAs(boom);
    }
}
