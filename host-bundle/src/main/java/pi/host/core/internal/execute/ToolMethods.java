package pi.host.core.internal.execute;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Activations;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.json.StreamedJson;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.ToolFacts;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.rpc.RpcMethod;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;

/** {@code tools.list}, {@code tools.execute}, {@code tools.executeBatch}, {@code tools.abort}. */
@Component(service = ToolMethods.class)
public final class ToolMethods {

    static final int MAX_BATCH = 256;

    private final ToolPipeline pipeline;
    private final Catalog catalog;
    private final SessionService sessions;
    private final Activations activations;
    private final DelegateScope delegates;
    private final ToolRegistry registry;
    private final ExecutorService parallel;

    @Activate
    public ToolMethods(@Reference ToolPipeline pipeline, @Reference Catalog catalog,
            @Reference SessionService sessions, @Reference Activations activations,
            @Reference DelegateScope delegates, @Reference ToolRegistry registry) {
        this.registry = registry;
        this.activations = activations;
        this.delegates = delegates;
        this.pipeline = pipeline;
        this.catalog = catalog;
        this.sessions = sessions;
        AtomicInteger n = new AtomicInteger();
        this.parallel = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "pi-batch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Deactivate
    private void deactivate() {
        parallel.shutdownNow();
    }

    public void register(MethodTable table) {
        table.put("tools.list", (p, c) -> list(p));
        // answered when the call ends, which on a timeout is before its body returns (ToolPipeline), with
        // the envelope itself: the connection writes it into the answer field by field, no tree (StreamedJson)
        table.put("tools.execute", (RpcMethod.Deferred) (p, c, answer) -> pipeline.execute(request(p.node(),
                p.requireString("sessionId"), p.requireString("turnId"), c), answer::complete));
        table.put("tools.executeBatch", (p, c) -> new BatchResults(batch(p, c)));
        table.putControl("tools.abort", (RpcMethod.Inline) (p, c, answer) -> abort(p, answer));
    }

    /**
     * Answered on the receiving thread (no pool hop) unless the call runs: cancelling a running call
     * runs its cancel actions (a plugin's among them), which may block, so that goes to a thread.
     */
    private void abort(Params p, CompletableFuture<Object> answer) throws RpcException {
        String sessionId = p.requireString("sessionId");
        String toolCallId = p.requireString("toolCallId");
        String toolName = p.optString("toolName").orElse(null);
        Boolean aborted = pipeline.abortUnlessRunning(sessionId, toolCallId, toolName);
        if (aborted != null) {
            answer.complete(Map.of("aborted", aborted));
            return;
        }
        try {
            parallel.execute(() -> {
                try {
                    answer.complete(Map.of("aborted", pipeline.abort(sessionId, toolCallId, toolName)));
                } catch (RuntimeException | LinkageError e) {
                    answer.completeExceptionally(e); // answered as an internal error, never left open
                }
            });
        } catch (RejectedExecutionException e) {
            throw new RpcException(RpcException.SERVER_BUSY, "the host is shutting down");
        }
    }

    private Catalog.Listing list(Params p) throws RpcException {
        String id = p.requireString("sessionId");
        SessionRecord s;
        try {
            s = sessions.find(id).orElseThrow(() -> RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND,
                    "no session " + id));
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
        OperatingMode mode = OperatingMode.parse(s.mode()).orElse(null);
        if (mode == null) {
            return new Catalog.Listing(List.of(), List.of(), 0); // unknown mode: nothing is offered (fail closed)
        }
        Optional<ObjectNode> delegate = p.optObject("delegate");
        if (delegate.isPresent()) {
            // a delegate's own list: its tools only, on-demand ones in full (it has no ToolSearch)
            Params d = new Params(delegate.get());
            String name = d.requireString("name");
            String source = d.optString("source").orElse("builtin");
            Set<String> tools = delegates.tools(s, mode, name, source).orElseThrow(() -> RpcException.invalidParams(
                    "this session has no " + source + " subagent definition '" + name + "'"));
            return DelegateScope.restrict(catalog.list(mode, tools, s), tools);
        }
        return delegates.offer(s, catalog.list(mode, activations.active(id), s));
    }

    /** {@code tools.executeBatch}'s answer, {@code {"results": [...]}}, written field by field like a call's. */
    record BatchResults(List<ResultEnvelope> results) implements StreamedJson {
        @Override
        public void writeJson(JsonGenerator out) throws IOException {
            out.writeStartObject();
            out.writeArrayFieldStart("results");
            for (ResultEnvelope r : results) {
                r.writeJson(out);
            }
            out.writeEndArray();
            out.writeEndObject();
        }
    }

    private List<ResultEnvelope> batch(Params p, RpcMethod.Caller client) throws RpcException {
        String sessionId = p.requireString("sessionId");
        String turnId = p.requireString("turnId");
        JsonNode calls = p.get("calls");
        if (calls == null || !calls.isArray() || calls.isEmpty() || calls.size() > MAX_BATCH) {
            throw RpcException.invalidParams("calls must be an array of 1 to " + MAX_BATCH + " calls");
        }
        List<ExecuteRequest> requests = new ArrayList<>();
        boolean allParallel = true;
        for (JsonNode call : calls) {
            if (!call.isObject()) {
                throw RpcException.invalidParams("every call must be an object");
            }
            ExecuteRequest r = request((ObjectNode) call, sessionId, turnId, client);
            requests.add(r);
            // the tools declared parallel (spec §0: Read, Glob, Grep); any other makes the whole batch sequential
            allParallel &= fact(r.name(), ToolFacts::parallel);
        }
        List<ResultEnvelope> results = new ArrayList<>(requests.size());
        List<String> solo = requests.stream().map(ExecuteRequest::name).filter(n -> fact(n, ToolFacts::solo))
                .distinct().toList();
        if (requests.size() > 1 && !solo.isEmpty()) {
            // a mode transition must be the only call of its batch: nothing here runs (PROTOCOL.md)
            for (ExecuteRequest r : requests) {
                String message = solo.contains(r.name())
                        ? r.name() + " must be the only call in its batch; nothing in this batch ran"
                        : "not run: the batch also calls " + String.join(", ", solo)
                                + ", which must be the only call in its batch";
                results.add(pipeline.refuse(r, ErrorCode.INVALID_ARGUMENT, message, "batch.solo"));
            }
            return results;
        }
        if (allParallel) {
            List<CompletableFuture<ResultEnvelope>> running = new ArrayList<>();
            for (ExecuteRequest r : requests) {
                CompletableFuture<ResultEnvelope> result = new CompletableFuture<>();
                parallel.execute(() -> pipeline.execute(r, result::complete));
                running.add(result);
            }
            for (CompletableFuture<ResultEnvelope> f : running) {
                results.add(f.join()); // source order, whatever order they completed in
            }
            return results;
        }
        for (ExecuteRequest r : requests) {
            pipeline.expect(sessionId, r.toolCallId(), r.name());
        }
        try {
            for (ExecuteRequest r : requests) {
                pipeline.unexpect(sessionId, r.toolCallId());
                results.add(pipeline.execute(r));
            }
        } finally {
            requests.forEach(r -> pipeline.unexpect(sessionId, r.toolCallId()));
        }
        return results;
    }

    /** A batch fact of the tool registered under {@code name}; false for a name nothing is registered under. */
    private boolean fact(String name, java.util.function.Predicate<ToolFacts> fact) {
        return registry.find(name).map(t -> fact.test(t.facts())).orElse(false);
    }

    private static ExecuteRequest request(ObjectNode call, String sessionId, String turnId, RpcMethod.Caller client)
            throws RpcException {
        Params p = new Params(call);
        String toolCallId = p.requireString("toolCallId");
        String name = p.requireString("name");
        ObjectNode arguments = p.optObject("arguments").orElseThrow(
                () -> RpcException.invalidParams("missing required param 'arguments' (an object)"));
        ExecuteRequest.Delegate delegate = null;
        if (p.optObject("delegate").isPresent()) {
            Params d = new Params(p.optObject("delegate").get());
            delegate = new ExecuteRequest.Delegate(d.requireString("name"), d.optString("source").orElse("builtin"),
                    d.optString("permission").orElse(null), d.optString("delegationId").orElse(null));
        }
        return new ExecuteRequest(sessionId, turnId, toolCallId, name, arguments,
                p.optString("messageId").orElse(null), delegate, client);
    }
}
