package pi.host.core.internal.control;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.json.Json;

class AskServiceTest {

    private final HostEvents events = new HostEvents(StartupGate.open());
    private final AskService asks = new AskService(events);
    private final AtomicReference<Runnable> stop = new AtomicReference<>();

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    private CompletableFuture<AskService.Answers> ask() throws Exception {
        JsonNode questions = json("[{\"question\":\"Which?\",\"options\":[\"a\",\"b\"]},{\"question\":\"Why?\"}]");
        CompletableFuture<AskService.Answers> f = CompletableFuture.supplyAsync(
                () -> asks.ask("s", "t", "c", questions, stop::set));
        await().atMost(Duration.ofSeconds(5)).until(() -> asks.pending("s").size() == 1);
        return f;
    }

    @Test
    void answersComeBackInQuestionOrder() throws Exception {
        events.subscribe((m, p) -> { });
        CompletableFuture<AskService.Answers> f = ask();
        String id = asks.pending(null).get(0).requestId();
        assertThat(asks.resolve(id, json("[\"a\"]"))).get().asString().contains("one entry per question");
        assertThat(asks.resolve(id, json("[1, null]"))).get().asString().contains("string");
        assertThat(asks.resolve(id, json("[[\"a\",\"b\"], null]"))).isEmpty();
        AskService.Answers a = f.get(5, TimeUnit.SECONDS);
        assertThat(a.skipped()).isFalse();
        assertThat(a.values().get(0).toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(a.values().get(1).isNull()).isTrue();
        assertThat(asks.resolve(id, json("[\"a\", \"b\"]"))).as("already answered").isPresent();
    }

    @Test
    void aStopResolvesTheQuestionsAsSkipped() throws Exception {
        events.subscribe((m, p) -> { });
        CompletableFuture<AskService.Answers> f = ask();
        stop.get().run();
        AskService.Answers a = f.get(5, TimeUnit.SECONDS);
        assertThat(a.skipped()).isTrue();
        assertThat(asks.pending(null)).isEmpty();
    }

    @Test
    void withNobodyToAskTheQuestionsAreSkippedAtOnce() throws Exception {
        assertThat(asks.ask("s", "t", "c", json("[{\"question\":\"?\"}]"), r -> { }).skipped()).isTrue();
    }

    @Test
    void shutdownSkipsWaitingQuestions() throws Exception {
        events.subscribe((m, p) -> { });
        CompletableFuture<AskService.Answers> f = ask();
        asks.hostStopping();
        assertThat(f.get(5, TimeUnit.SECONDS).why()).contains("shutting down");
    }

    /** Pins issue 12.6 for questions: a session's waiting questions are bounded; past it nothing is asked. */
    @Test
    void questionsOverTheSessionsBoundAreNeverAsked() throws Exception {
        AskService bounded = new AskService(events, 1);
        java.util.List<String> published = new java.util.concurrent.CopyOnWriteArrayList<>();
        events.subscribe((m, p) -> published.add(m));
        JsonNode questions = json("[{\"question\":\"?\"}]");
        CompletableFuture<AskService.Answers> first = CompletableFuture.supplyAsync(
                () -> bounded.ask("s", "t", "c1", questions, stop::set));
        await().atMost(Duration.ofSeconds(5)).until(() -> bounded.pending("s").size() == 1);

        AskService.Answers refused = bounded.ask("s", "t", "c2", questions, r -> { });
        assertThat(refused.overLimit()).isTrue();
        assertThat(refused.why()).isEqualTo("the session already has 1 questions waiting for the user; nothing was asked");
        assertThat(published).containsExactly("ask.request");

        stop.get().run();
        assertThat(first.get(5, TimeUnit.SECONDS).skipped()).isTrue();
        CompletableFuture<AskService.Answers> again = CompletableFuture.supplyAsync(
                () -> bounded.ask("s", "t", "c3", questions, r -> { }));
        await().atMost(Duration.ofSeconds(5)).until(() -> bounded.pending("s").size() == 1);
        bounded.hostStopping();
        assertThat(again.get(5, TimeUnit.SECONDS).overLimit()).isFalse();
    }
}
