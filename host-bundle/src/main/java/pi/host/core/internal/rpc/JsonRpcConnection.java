package pi.host.core.internal.rpc;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.JsonText;
import pi.host.core.internal.json.StreamedJson;
import pi.host.core.internal.json.TreeReader;
import pi.host.core.rpc.RpcConnection;

/**
 * One JSON-RPC 2.0 conversation: validates each received line, runs requests concurrently on the
 * host's pool ({@link #receive}) or on the calling thread ({@link #receiveOnCallingThread}; an
 * {@link RpcMethod.Inline} method always on the receiving thread), and writes responses (in
 * completion order) and notifications through one sink.
 * A bad line is answered with its error and never ends the conversation. A message is a tree, or,
 * for a result or params that is a {@link StreamedJson}, written field by field with no tree made.
 *
 * <p>At most {@code maxInFlight} requests run at once; past that a request is answered busy at once,
 * except a control method ({@link MethodTable#putControl}): those end what the others wait for (a
 * card, a running call) and never wait themselves, so they are never refused here.
 */
final class JsonRpcConnection implements RpcConnection, RpcMethod.Caller {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<String, RpcMethod> methods;
    private final Set<String> control;
    private final Executor pool;
    private final Consumer<String> out;
    /** {@code out} when it can hold a message for an {@link OutputBatch}, else null. */
    private final BufferedSink buffered;
    private final Semaphore inFlight;
    private final Runnable onClose;
    private final ObjectMapper mapper = Json.mapper();

    private final Object idle = new Object();
    private int running;
    private volatile boolean closed;

    JsonRpcConnection(Map<String, RpcMethod> methods, Executor pool, Consumer<String> out, int maxInFlight,
            Runnable onClose) {
        this(methods, Set.of(), pool, out, maxInFlight, onClose);
    }

    JsonRpcConnection(Map<String, RpcMethod> methods, Set<String> control, Executor pool, Consumer<String> out,
            int maxInFlight, Runnable onClose) {
        this.methods = methods;
        this.control = control;
        this.pool = pool;
        this.out = out;
        this.buffered = out instanceof BufferedSink ? (BufferedSink) out : null;
        this.inFlight = new Semaphore(maxInFlight);
        this.onClose = onClose;
    }

    @Override
    public void receive(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        receive(bytes, 0, bytes.length);
    }

    @Override
    public void receive(byte[] line, int offset, int length) {
        JsonNode root = parse(line, offset, length);
        if (root == null) {
            return;
        }
        answer(root, pool);
    }

    @Override
    public void receiveOnCallingThread(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        receiveOnCallingThread(bytes, 0, bytes.length, () -> {
        });
    }

    @Override
    public void receiveOnCallingThread(byte[] line, int offset, int length, Runnable beforeBlocking) {
        JsonNode root = parse(line, offset, length);
        if (root == null) {
            return;
        }
        Once release = new Once(beforeBlocking);
        if (root.isArray() && !root.isEmpty()) {
            release.run(); // a batch's requests run on the pool and may block; this thread waits for them
        }
        CompletableFuture<Void> answered = answer(root, release);
        if (!answered.isDone()) {
            release.run(); // the answer comes from another thread (a batch, an abort of a running call)
            try {
                answered.join();
            } catch (CompletionException | CancellationException e) {
                // out failed: as with receive, the failure ends with the answer it could not deliver
            }
        }
    }

    /**
     * Runs a line's request ({@code runner} starts it unless it is inline) or batch (on the pool);
     * completes once its answer has been sent. The line counts as running until then, so that
     * {@link #awaitIdle} never returns before an answer is out.
     */
    private CompletableFuture<Void> answer(JsonNode root, Executor runner) {
        started();
        if (root.isArray()) {
            return receiveBatch((ArrayNode) root).whenComplete((done, failure) -> finished());
        }
        Reply reply = new Reply();
        handle(root, runner, reply);
        return reply.sent;
    }

    /**
     * One line's response: sent on the thread that gives it (unless null: a notification's), then the
     * line no longer counts as running, then {@link #sent} completes (exceptionally when the send
     * failed). A class of its own, not a chain of futures and lambdas: every call passes here once,
     * in a fresh Java 17 host interpreted for its first ~150 calls (docs/performance-log.md, j17req12).
     */
    private final class Reply implements Consumer<Object> {
        final CompletableFuture<Void> sent = new CompletableFuture<>();

        @Override
        public void accept(Object message) {
            Throwable failed = null;
            try {
                sendUnlessNull(message);
            } catch (Throwable e) {
                failed = e; // as a dependent future would: the failure ends with the answer it could not deliver
            }
            finished();
            if (failed == null) {
                sent.complete(null);
            } else {
                sent.completeExceptionally(failed);
            }
        }
    }

    /**
     * The line as a tree; null when it carries nothing to run (blank, or a parse error, answered here).
     * Read from the parser's tokens (TreeReader): the mapper's tree and its errors, without databind's
     * set-up for every line.
     */
    private JsonNode parse(byte[] line, int offset, int length) {
        JsonNode root;
        try {
            root = TreeReader.read(line, offset, length);
        } catch (StreamConstraintsException e) {
            send(error(NullNode.instance, RpcException.PARSE_ERROR, "parse error: " + Json.describe(e), null));
            return null;
        } catch (JacksonException e) {
            send(error(NullNode.instance, RpcException.PARSE_ERROR, "parse error: " + e.getOriginalMessage(), null));
            return null;
        } catch (java.io.IOException e) {
            send(error(NullNode.instance, RpcException.PARSE_ERROR, "parse error: " + e.getMessage(), null));
            return null;
        }
        return root == null || root.isMissingNode() ? null : root; // a blank line carries nothing to answer
    }

    @Override
    public void receiveOversized(long length, long limit) {
        send(error(NullNode.instance, RpcException.INVALID_REQUEST,
                "request line of " + length + " bytes exceeds the limit of " + limit + " bytes", null));
    }

    /** Starts a batch's requests on the pool; completes once its answer has been sent. */
    private CompletableFuture<Void> receiveBatch(ArrayNode batch) {
        if (batch.isEmpty()) {
            send(error(NullNode.instance, RpcException.INVALID_REQUEST, "invalid request: empty batch", null));
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Object>> parts = new ArrayList<>(batch.size());
        for (JsonNode request : batch) {
            parts.add(handle(request, pool));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenRun(() -> {
            List<Object> responses = new ArrayList<>(parts.size());
            for (CompletableFuture<Object> part : parts) {
                Object response = part.join();
                if (response != null) {
                    responses.add(response);
                }
            }
            if (!responses.isEmpty()) {
                // each response as its own text, so that one whose result fails while written is
                // answered alone as an internal error, as outside a batch
                send((StreamedJson) out -> {
                    out.writeStartArray();
                    for (Object response : responses) {
                        out.writeRawValue(text(response));
                    }
                    out.writeEndArray();
                });
            }
        });
    }

    /**
     * Validates and starts one request, on {@code runner} unless its method is inline; completes with
     * its response, or null for a notification.
     */
    private CompletableFuture<Object> handle(JsonNode request, Executor runner) {
        CompletableFuture<Object> response = new CompletableFuture<>();
        handle(request, runner, response::complete);
        return response;
    }

    /**
     * {@link #handle(JsonNode, Executor)} into a response the caller gives, which takes the response
     * exactly once: what it does (the send) is fixed before the request runs, so an answer given on
     * this thread is sent from inside the call's end (where its {@code tool.completed} may be held in an
     * {@link OutputBatch}), not after.
     */
    private void handle(JsonNode request, Executor runner, Consumer<Object> response) {
        if (!request.isObject()) {
            response.accept(error(NullNode.instance, RpcException.INVALID_REQUEST, "invalid request: not an object", null));
            return;
        }
        JsonNode id = request.get("id");
        boolean notification = id == null;
        if (!notification && !(id.isTextual() || id.isNumber() || id.isNull())) {
            response.accept(error(NullNode.instance, RpcException.INVALID_REQUEST,
                    "invalid request: id must be a string, a number or null", null));
            return;
        }
        JsonNode replyId = notification ? NullNode.instance : id;
        JsonNode version = request.get("jsonrpc");
        if (version == null || !version.isTextual() || !"2.0".equals(version.textValue())) {
            response.accept(error(replyId, RpcException.INVALID_REQUEST, "invalid request: jsonrpc must be \"2.0\"", null));
            return;
        }
        JsonNode methodNode = request.get("method");
        if (methodNode == null || !methodNode.isTextual()) {
            response.accept(error(replyId, RpcException.INVALID_REQUEST, "invalid request: method must be a string", null));
            return;
        }
        String name = methodNode.textValue();
        RpcMethod method = methods.get(name);
        if (method == null) {
            response.accept(notification ? null
                    : error(replyId, RpcException.METHOD_NOT_FOUND, "method not found: " + ErrorText.quote(name), null));
            return;
        }
        JsonNode rawParams = request.get("params");
        if (rawParams != null && !rawParams.isNull() && !rawParams.isObject()) {
            response.accept(notification ? null
                    : error(replyId, RpcException.INVALID_PARAMS, "params must be an object", null));
            return;
        }
        Params params = rawParams == null || rawParams.isNull() ? Params.empty() : new Params((ObjectNode) rawParams);
        boolean counted = !control.contains(name);
        if (counted && !inFlight.tryAcquire()) {
            response.accept(notification ? null
                    : error(replyId, RpcException.SERVER_BUSY, "too many requests in flight", null));
            return;
        }
        Call start = new Call(method, params, replyId, notification, counted, response);
        // an Inline method starts on this (the receiving) thread: it never blocks, so the hop to
        // another thread and its wake-up would be pure cost
        Executor on = method instanceof RpcMethod.Inline ? Runnable::run : runner;
        try {
            on.execute(start);
        } catch (RejectedExecutionException e) {
            if (counted) {
                inFlight.release();
                response.accept(notification ? null
                        : error(replyId, RpcException.SERVER_BUSY, "the host is shutting down", null));
            } else {
                start.run(); // a control method never waits: with no thread to be had it runs here
            }
        }
    }

    /**
     * A started request: runs its method, then answers it. The request counts as in flight until it is
     * answered, which for a Deferred method may be before or after {@link #run} returns. A class rather
     * than lambdas, as {@link Reply} is.
     */
    private final class Call implements Runnable, BiConsumer<Object, Throwable> {
        private final RpcMethod method;
        private final Params params;
        private final JsonNode replyId;
        private final boolean notification;
        private final boolean counted;
        private final Consumer<Object> response;

        Call(RpcMethod method, Params params, JsonNode replyId, boolean notification, boolean counted,
                Consumer<Object> response) {
            this.method = method;
            this.params = params;
            this.replyId = replyId;
            this.notification = notification;
            this.counted = counted;
            this.response = response;
        }

        @Override
        public void run() {
            CompletableFuture<Object> answer = new CompletableFuture<>();
            answer.whenComplete(this);
            invoke(method, params, answer);
        }

        /** The method's answer (or failure): the response, then the in-flight slot back. */
        @Override
        public void accept(Object result, Throwable failure) {
            try {
                response.accept(notification ? null : respond(replyId, result, failure));
            } finally {
                if (counted) {
                    inFlight.release();
                }
            }
        }
    }

    private void invoke(RpcMethod method, Params params, CompletableFuture<Object> answer) {
        try {
            if (method instanceof RpcMethod.Deferred) {
                ((RpcMethod.Deferred) method).start(params, this, answer);
            } else {
                answer.complete(method.call(params, this));
            }
        } catch (Exception | LinkageError | AssertionError e) {
            answer.completeExceptionally(e);
        }
    }

    /** The response message: a tree, or an {@link Answer} whose result writes itself when it is sent. */
    private Object respond(JsonNode id, Object result, Throwable failure) {
        if (failure == null) {
            if (result instanceof StreamedJson) {
                return new Answer(id, (StreamedJson) result);
            }
            try {
                ObjectNode response = NODES.objectNode();
                response.put("jsonrpc", "2.0");
                response.set("id", id);
                response.set("result", result == null ? NODES.objectNode() : tree(result));
                return response;
            } catch (RuntimeException e) {
                failure = e; // a result Jackson cannot write
            }
        }
        if (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (failure instanceof RpcException) {
            RpcException e = (RpcException) failure;
            return error(id, e.code(), e.getMessage(), e.errorCode() == null ? null : e.errorCode().name());
        }
        return error(id, RpcException.INTERNAL_ERROR, "internal error: " + failure, null);
    }

    @Override
    public void notify(String method, Object params) {
        if (params instanceof StreamedJson) {
            send(new Notification(method, (StreamedJson) params), true);
            return;
        }
        ObjectNode message = NODES.objectNode();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        message.set("params", tree(params));
        send(message, true);
    }

    /**
     * A result or params object as a tree. A tree is used as it is: converting it would copy every
     * node through a token buffer.
     */
    private JsonNode tree(Object value) {
        return value instanceof JsonNode ? (JsonNode) value : mapper.valueToTree(value);
    }

    /** An error response; every JSON-RPC error of the host passes here, so its message is bounded here. */
    private static ObjectNode error(JsonNode id, int code, String message, String errorCode) {
        ObjectNode err = NODES.objectNode();
        err.put("code", code);
        err.put("message", ErrorText.bound(message));
        if (errorCode != null) {
            err.putObject("data").put("errorCode", errorCode);
        }
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("error", err);
        return response;
    }

    /** A response whose result writes itself: {@code {jsonrpc, id, result}} in one pass, as the tree would be written. */
    private record Answer(JsonNode id, StreamedJson result) implements StreamedJson {
        @Override
        public void writeJson(JsonGenerator out) throws IOException {
            out.writeStartObject();
            out.writeStringField("jsonrpc", "2.0");
            out.writeFieldName("id");
            JsonText.tree(out, id);
            out.writeFieldName("result");
            result.writeJson(out);
            out.writeEndObject();
        }
    }

    /** A notification whose params write themselves: {@code {jsonrpc, method, params}}. */
    private record Notification(String method, StreamedJson params) implements StreamedJson {
        @Override
        public void writeJson(JsonGenerator out) throws IOException {
            out.writeStartObject();
            out.writeStringField("jsonrpc", "2.0");
            out.writeStringField("method", method);
            out.writeFieldName("params");
            params.writeJson(out);
            out.writeEndObject();
        }
    }

    private void sendUnlessNull(Object message) {
        if (message != null) {
            send(message);
        }
    }

    private void send(Object message) {
        send(message, false);
    }

    /**
     * Writes one message. A notification sent while this thread's {@link OutputBatch} is open is
     * only buffered; the next answer's flush (or the batch's end) sends it, so a call's
     * {@code tool.completed} and its answer leave in one write and the answer is out before anything
     * that waits for it is woken.
     */
    private void send(Object message, boolean notification) {
        if (closed) {
            return;
        }
        String text = text(message);
        synchronized (out) {
            if (buffered == null) {
                out.accept(text);
            } else if (notification && OutputBatch.holds(buffered)) {
                buffered.write(text);
            } else {
                buffered.accept(text);
                OutputBatch.flushed(buffered);
            }
        }
    }

    /** A message (a tree or a {@link StreamedJson}) as one JSON text. */
    private String text(Object message) {
        try {
            return message instanceof StreamedJson ? JsonText.write((StreamedJson) message)
                    : mapper.writeValueAsString(message);
        } catch (IOException e) {
            return "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"unserializable result\"}}";
        } catch (RuntimeException e) {
            if (message instanceof Answer) {
                // as respond() answers a result it cannot make a tree of
                return text(error(((Answer) message).id(), RpcException.INTERNAL_ERROR, "internal error: " + e, null));
            }
            throw e;
        }
    }

    private void started() {
        synchronized (idle) {
            running++;
        }
    }

    private void finished() {
        synchronized (idle) {
            running--;
            idle.notifyAll();
        }
    }

    @Override
    public boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        synchronized (idle) {
            while (running > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return false;
                }
                idle.wait(left);
            }
            return true;
        }
    }

    /**
     * Runs its action the first time only; used by one thread. As an executor: the action, then the
     * task (a request run on the receiving thread lets the reading go first).
     */
    private static final class Once implements Runnable, Executor {
        private Runnable action;

        Once(Runnable action) {
            this.action = action;
        }

        @Override
        public void run() {
            Runnable a = action;
            if (a != null) {
                action = null;
                a.run();
            }
        }

        @Override
        public void execute(Runnable task) {
            run();
            task.run();
        }
    }

    /** What runs when this connection closes ({@link #onClose(Runnable)}); null once it ran. */
    private java.util.List<Runnable> closeActions = new java.util.ArrayList<>();

    @Override
    public boolean open() {
        return !closed;
    }

    @Override
    public void onClose(Runnable action) {
        synchronized (idle) {
            if (closeActions != null) {
                closeActions.add(action);
                return;
            }
        }
        action.run();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            onClose.run();
            java.util.List<Runnable> run;
            synchronized (idle) {
                run = closeActions;
                closeActions = null;
            }
            for (Runnable r : run == null ? java.util.List.<Runnable>of() : run) {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    System.getLogger(JsonRpcConnection.class.getName()).log(System.Logger.Level.WARNING,
                            "a close action failed", e);
                }
            }
        }
    }
}
