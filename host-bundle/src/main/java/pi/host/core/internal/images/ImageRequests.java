package pi.host.core.internal.images;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.approval.PendingPerSession;
import pi.host.core.internal.info.ShutdownParticipant;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.rpc.RpcMethod;
import pi.host.spi.PinnedFiles;

/**
 * The client's half of GenerateImages (spec §12): the host authorized the call, the client makes the
 * images. {@code images.request} goes to the one connection the call came on, never to the others; only
 * that connection may answer it with {@code images.resolve}, and until it does (or the call's budget runs
 * out, {@code tools.abort} stops it, the connection closes or the host stops) the call waits. A stop or a
 * timeout tells the client with {@code images.cancelled}. No connection to ask, or one that never said it
 * makes images ({@code images.attach}: the console and the MCP front do not): denied, nothing sent, so a
 * call never waits out its budget for an answer nobody will give.
 */
@Component(service = {ImageRequests.class, ShutdownParticipant.class})
public final class ImageRequests implements ShutdownParticipant {

    /** How a request ended. */
    public sealed interface Outcome {
    }

    /** The client made the images (checked by {@link ImageFiles}). */
    public record Made(List<GeneratedImage> images) implements Outcome {
    }

    /** The client could not make them. */
    public record Failed(String message, String code) implements Outcome {
    }

    /** Nobody can make them: no connection, a closed one, or too many waiting; nothing was (or is) pending. */
    public record Denied(String why) implements Outcome {
    }

    /** The call was cancelled (abort, timeout, shutdown); the client was told. */
    public record Cancelled(String reason) implements Outcome {
    }

    /** A waiting request, as {@code images.pending} lists it. */
    public record ImageRequest(String requestId, String sessionId, String turnId, String toolCallId, String prompt,
            Map<String, Object> options, String scratchDir, long createdAt) {
    }

    /** Makes the session's scratch dir when it is missing, and names it. */
    @FunctionalInterface
    public interface ScratchDir {
        Path make() throws IOException;
    }

    private record Pending(ImageRequest request, RpcMethod.Caller client, Path scratch,
            CompletableFuture<Outcome> outcome) {
    }

    private static final Denied CONNECTION_CLOSED = new Denied("the client's connection closed before it answered");

    private final PinnedFiles files;
    private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();
    /** The open connections that said they make images ({@link #attach}). */
    private final Set<RpcMethod.Caller> makers = ConcurrentHashMap.newKeySet();
    private final PendingPerSession perSession = new PendingPerSession(PendingPerSession.MAX);
    private volatile boolean closed;

    @Activate
    public ImageRequests(@Reference PinnedFiles files) {
        this.files = files;
    }

    /**
     * Sends {@code images.request} to {@code client} and waits for its answer.
     *
     * @param scratchDir makes (when missing) and returns the session's scratch dir, where the client puts the
     *     images; called only once the request will be sent, so a denied call writes nothing
     * @param onCancel registers what the call's cancellation runs (abort, timeout)
     * @param cancelReason why the call was cancelled, when it was
     */
    public Outcome request(RpcMethod.Caller client, String sessionId, String turnId, String toolCallId,
            ScratchDir scratchDir, String prompt, Map<String, Object> options, java.util.function.Consumer<Runnable> onCancel,
            java.util.function.Supplier<String> cancelReason) {
        if (closed) {
            return new Denied("the host is shutting down");
        }
        if (client == null || !client.open()) {
            return new Denied("no client is attached to make the images (GenerateImages runs in the client that"
                    + " called it)");
        }
        if (!makers.contains(client)) {
            return new Denied("the client that called it does not make images (it never sent images.attach)");
        }
        if (!perSession.take(sessionId)) {
            return new Denied("the session already has " + perSession.max() + " image requests waiting");
        }
        Path scratch;
        try {
            scratch = scratchDir.make();
        } catch (IOException e) {
            perSession.give(sessionId);
            return new Failed("the session's scratch dir cannot be made (" + e.getClass().getSimpleName()
                    + "); nothing was sent", null);
        }
        ImageRequest request = new ImageRequest("img_" + UUID.randomUUID(), sessionId, turnId, toolCallId, prompt,
                options, scratch.toString(), System.currentTimeMillis());
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        pending.put(request.requestId(), new Pending(request, client, scratch, outcome));
        try {
            onCancel.accept(() -> outcome.complete(new Cancelled(orElse(cancelReason.get(), "aborted"))));
            // a close after this check finds the request pending (attach's close action ends it)
            if (!client.open()) {
                outcome.complete(CONNECTION_CLOSED);
            }
            if (closed) {
                outcome.complete(new Cancelled("shutdown"));
            }
            client.notify("images.request", request);
            Outcome result = await(outcome);
            if (result instanceof Cancelled) {
                Map<String, Object> cancelled = new LinkedHashMap<>();
                cancelled.put("requestId", request.requestId());
                cancelled.put("sessionId", sessionId);
                cancelled.put("toolCallId", toolCallId);
                cancelled.put("reason", ((Cancelled) result).reason());
                client.notify("images.cancelled", cancelled);
            }
            return result;
        } finally {
            pending.remove(request.requestId());
            perSession.give(sessionId);
        }
    }

    private static Outcome await(CompletableFuture<Outcome> outcome) {
        try {
            return outcome.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Cancelled("interrupted");
        } catch (ExecutionException e) {
            return new Failed(String.valueOf(e.getCause()), null);
        }
    }

    /**
     * Records that {@code client} makes images: from now until it closes, its GenerateImages calls are
     * sent to it as {@code images.request}.
     */
    public void attach(RpcMethod.Caller client) {
        if (client.open() && makers.add(client)) {
            client.onClose(() -> {
                makers.remove(client);
                pending.values().stream().filter(p -> p.client() == client)
                        .forEach(p -> p.outcome().complete(CONNECTION_CLOSED));
            });
        }
    }

    /**
     * Answers a waiting request from {@code caller}: {@code images} (the files made) or {@code error}
     * ({@code {message, code?}}), exactly one of them. Empty when accepted; otherwise why not, and the
     * request keeps waiting (a malformed answer can be sent again).
     */
    public Optional<String> resolve(RpcMethod.Caller caller, String requestId, JsonNode images, JsonNode error) {
        Pending p = pending.get(requestId);
        if (p == null || p.client() != caller) {
            // another connection's request is none of this one's business: the same answer as for no request
            return Optional.of("no pending images request " + ErrorText.quote(requestId) + " of this connection");
        }
        boolean hasImages = images != null && !images.isNull();
        boolean hasError = error != null && !error.isNull();
        if (hasImages == hasError) {
            return Optional.of("give exactly one of images and error");
        }
        if (hasError) {
            JsonNode message = error.get("message");
            JsonNode code = error.get("code");
            if (!error.isObject() || message == null || !message.isTextual() || message.textValue().isBlank()
                    || code != null && !code.isNull() && !code.isTextual()) {
                return Optional.of("error must be {message, code?} with a non-empty message");
            }
            p.outcome().complete(new Failed(ErrorText.cut(message.textValue(), 2000),
                    code == null || code.isNull() ? null : ErrorText.cut(code.textValue(), 64)));
            return Optional.empty();
        }
        try {
            p.outcome().complete(new Made(ImageFiles.check(files, p.scratch(), images)));
            return Optional.empty();
        } catch (ImageFiles.Invalid e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The requests waiting for {@code caller}'s answer, of one session or all. */
    public List<ImageRequest> pending(RpcMethod.Caller caller, String sessionId) {
        List<ImageRequest> out = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (p.client() == caller && (sessionId == null || sessionId.equals(p.request().sessionId()))) {
                out.add(p.request());
            }
        }
        return out;
    }

    @Override
    public void hostStopping() {
        closed = true;
        pending.values().forEach(p -> p.outcome().complete(new Cancelled("shutdown")));
    }

    @Deactivate
    private void deactivate() {
        hostStopping();
    }

    private static String orElse(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
