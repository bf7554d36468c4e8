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
 * The waits of GenerateImages below the real-process test (GenerateImagesIT): no connection at all, one that
 * does not make images, another connection's answer, a closed connection, and a cancellation by the call's
 * timeout (the real-process test aborts; a timeout there would take the tool's five minutes).
 */
class ImageRequestsTest {

    @TempDir
    Path tmp;

    /** One connection's notifications, as a connection records them (the stand-in for the desktop's end). */
    private static final class Connection implements RpcMethod.Caller {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final List<Object> params = new CopyOnWriteArrayList<>();
        final List<Runnable> closeActions = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        @Override
        public void notify(String method, Object p) {
            sent.add(method);
            params.add(p);
        }

        @Override
        public boolean open() {
            return !closed;
        }

        @Override
        public void onClose(Runnable action) {
            closeActions.add(action);
        }

        void close() {
            closed = true;
            closeActions.forEach(Runnable::run);
        }

        String requestId() {
            return ((ImageRequests.ImageRequest) params.get(0)).requestId();
        }
    }

    private CompletableFuture<ImageRequests.Outcome> start(ImageRequests requests, Connection client) {
        CompletableFuture<ImageRequests.Outcome> outcome = CompletableFuture.supplyAsync(() -> requests.request(client,
                "s", "t", "c", () -> tmp, "a cat", Map.of("count", 1), r -> { }, () -> null));
        await().atMost(Duration.ofSeconds(10)).until(() -> client.sent.contains("images.request"));
        return outcome;
    }

    /**
     * Pins fail closed for clients that make no images (the console, the MCP front): a call from a connection
     * that never sent images.attach is denied at once and nothing is asked of it.
     */
    @Test
    void aConnectionThatNeverAttachedIsDeniedAndAskedNothing() {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        Connection console = new Connection();
        ImageRequests.Outcome o = requests.request(console, "s", "t", "c", () -> tmp, "a cat", Map.of(), r -> { },
                () -> null);
        assertThat(o).isInstanceOf(ImageRequests.Denied.class);
        assertThat(((ImageRequests.Denied) o).why()).contains("never sent images.attach");
        assertThat(console.sent).isEmpty();
    }

    /** Pins who may answer: only the connection that got the request; another one is told there is none. */
    @Test
    void onlyTheConnectionThatGotTheRequestMayResolveIt() throws Exception {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        Connection desktop = new Connection();
        Connection other = new Connection();
        requests.attach(desktop);
        requests.attach(other);
        CompletableFuture<ImageRequests.Outcome> outcome = start(requests, desktop);
        assertThat(other.sent).as("the request goes to the calling connection alone").isEmpty();
        String id = desktop.requestId();
        com.fasterxml.jackson.databind.node.ObjectNode error = pi.host.core.internal.json.Json.mapper()
                .createObjectNode().put("message", "forged");
        assertThat(requests.resolve(other, id, null, error)).get().asString()
                .startsWith("no pending images request");
        assertThat(outcome).isNotDone();
        assertThat(requests.resolve(desktop, id, null, error.put("message", "no quota"))).isEmpty();
        assertThat(outcome.get()).isEqualTo(new ImageRequests.Failed("no quota", null));
    }

    @Test
    void aConnectionThatClosesEndsItsWait() throws Exception {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        Connection desktop = new Connection();
        requests.attach(desktop);
        CompletableFuture<ImageRequests.Outcome> outcome = start(requests, desktop);
        desktop.close();
        assertThat(outcome.get()).isInstanceOf(ImageRequests.Denied.class);
        assertThat(requests.pending(desktop, null)).isEmpty();
        desktop.closed = false; // reopened by the test: what closed does not stay attached
        ImageRequests.Outcome again = requests.request(desktop, "s", "t", "c2", () -> tmp, "a cat", Map.of(), r -> { },
                () -> null);
        assertThat(((ImageRequests.Denied) again).why()).contains("never sent images.attach");
    }

    /** Pins fail closed: a call no connection made is denied and nothing is asked of anyone. */
    @Test
    void noClientIsDeniedAndNothingIsSent() {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        ImageRequests.Outcome o = requests.request(null, "s", "t", "c", () -> tmp, "a cat", Map.of(), r -> { }, () -> null);
        assertThat(o).isInstanceOf(ImageRequests.Denied.class);
        assertThat(((ImageRequests.Denied) o).why()).startsWith("no client is attached");
    }

    @Test
    void aTimeoutCancelsTheRequestAndTellsTheClientWhy() throws Exception {
        ImageRequests requests = new ImageRequests(FilesComponent.load(tmp.resolve("j")));
        Connection desktop = new Connection();
        requests.attach(desktop);
        AtomicReference<Runnable> cancel = new AtomicReference<>();
        AtomicReference<String> reason = new AtomicReference<>();
        CompletableFuture<ImageRequests.Outcome> outcome = CompletableFuture.supplyAsync(() -> requests.request(desktop,
                "s", "t", "c", () -> tmp, "a cat", Map.of("count", 1), cancel::set, reason::get));
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
