package pi.host.core.internal.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.core.internal.rpc.RpcMethod;

/**
 * The waits of GenerateImages the in-container test cannot reach: no connection at all, and a cancellation
 * by the call's timeout (the in-container test aborts; a timeout there would take the tool's five minutes).
 */
class ImageRequestsTest {

    @TempDir
    Path tmp;

    /** One connection's notifications, as a connection records them (the stand-in for the desktop's end). */
    private static final class Connection implements RpcMethod.Caller {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final List<Object> params = new CopyOnWriteArrayList<>();

        @Override
        public void notify(String method, Object p) {
            sent.add(method);
            params.add(p);
        }
    }

    /** Pins fail closed: a call no connection made is denied and nothing is asked of anyone. */
    @Test
    void noClientIsDeniedAndNothingIsSent() {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        ImageRequests.Outcome o = requests.request(null, "s", "t", "c", tmp, "a cat", Map.of(), r -> { }, () -> null);
        assertThat(o).isInstanceOf(ImageRequests.Denied.class);
        assertThat(((ImageRequests.Denied) o).why()).startsWith("no client is attached");
    }

    @Test
    void aTimeoutCancelsTheRequestAndTellsTheClientWhy() throws Exception {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        Connection desktop = new Connection();
        AtomicReference<Runnable> cancel = new AtomicReference<>();
        AtomicReference<String> reason = new AtomicReference<>();
        CompletableFuture<ImageRequests.Outcome> outcome = CompletableFuture.supplyAsync(() -> requests.request(desktop,
                "s", "t", "c", tmp, "a cat", Map.of("count", 1), cancel::set, reason::get));
        await().atMost(Duration.ofSeconds(10)).until(() -> desktop.sent.contains("images.request"));
        assertThat(requests.pending(desktop, "s")).hasSize(1);
        assertThat(requests.pending(new Connection(), null)).as("another connection sees none of it").isEmpty();
        reason.set("timeout");
        cancel.get().run();
        assertThat(outcome.get()).isEqualTo(new ImageRequests.Cancelled("timeout"));
        assertThat(desktop.sent).containsExactly("images.request", "images.cancelled");
        @SuppressWarnings("unchecked")
        Map<String, Object> cancelled = (Map<String, Object>) desktop.params.get(1);
        assertThat(cancelled).containsEntry("reason", "timeout").containsEntry("toolCallId", "c")
                .containsEntry("requestId", ((ImageRequests.ImageRequest) desktop.params.get(0)).requestId());
        assertThat(requests.pending(desktop, null)).isEmpty();
    }
}
