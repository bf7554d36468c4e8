package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import pi.host.console.internal.render.NoticeView;
import pi.host.core.rpc.HostClient;

/**
 * Sends each notification where it belongs, on the host's thread that delivered it: a running
 * call's output and cards to that call; plan approvals to the queue the console shows after the
 * line; everything else to the screen as a notice. A card no call of this console waits for is
 * denied at once (fail closed): nobody here will answer it.
 */
final class Router implements BiConsumer<String, JsonNode> {

    private static final Set<String> CALL_EVENTS = Set.of("tool.output", "permission.request", "permission.resolved",
            "ask.request", "tool.completed");

    private final AtomicReference<ActiveCall> active = new AtomicReference<>();
    private final Queue<JsonNode> plans = new ConcurrentLinkedQueue<>();
    private volatile Context context;

    void attach(Context context) {
        this.context = context;
    }

    void begin(ActiveCall call) {
        active.set(call);
    }

    void end(ActiveCall call) {
        active.compareAndSet(call, null);
    }

    /** The plan approvals announced since the last look. */
    JsonNode nextPlan() {
        return plans.poll();
    }

    @Override
    public void accept(String method, JsonNode params) {
        Context c = context;
        if (c == null) {
            return; // before the session exists nothing can concern it
        }
        if (CALL_EVENTS.contains(method)) {
            ActiveCall call = active.get();
            if (call != null && call.toolCallId.equals(params.path("toolCallId").asText())
                    && c.sessionId.equals(params.path("sessionId").asText(c.sessionId))) {
                call.deliver(method, params);
            } else if ("permission.request".equals(method)) {
                c.client.send("permissions.resolve", HostClient.params()
                        .put("requestId", params.path("requestId").asText()).put("decision", "deny"));
            } else if ("ask.request".equals(method)) {
                c.client.send("asks.resolve", HostClient.params().put("requestId", params.path("requestId").asText())
                        .set("answers", Cards.skipped(c.client, params.path("questions").size())));
            }
            return;
        }
        switch (method) {
            case "tools.changed" -> c.catalog.invalidate();
            case "session.state" -> {
                if (c.sessionId.equals(params.path("sessionId").asText())) {
                    c.mode(params.path("mode").asText(c.mode()));
                    c.catalog.invalidate();
                }
            }
            case "plan.approval.request" -> {
                if (c.sessionId.equals(params.path("sessionId").asText())) {
                    plans.add(params);
                }
                return; // its screen follows the line; no notice needed
            }
            case "background.updated" -> {
                JsonNode t = params.has("task") ? params.get("task") : params;
                if (!c.sessionId.equals(t.path("sessionId").asText())) {
                    return;
                }
                c.tasks.add(t.path("taskId").asText());
            }
            default -> {
            }
        }
        var rows = NoticeView.render(method, params);
        if (!rows.isEmpty()) {
            c.screen.notice(rows);
        }
    }
}
