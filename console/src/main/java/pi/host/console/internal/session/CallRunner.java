package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.console.internal.input.ArgumentTyper;
import pi.host.console.internal.input.Input;
import pi.host.console.internal.render.ResultView;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.StreamPrinter;
import pi.host.console.internal.render.Styles;

/**
 * Runs one typed tool line as {@code tools.execute}, exactly as the desktop would send it, and stays
 * with the call until it answers: its output is shown as it streams, its cards and questions are put
 * to the person, and Ctrl-C sends {@code tools.abort} for it. Then the result is rendered.
 */
final class CallRunner {

    /** The event the signal thread queues for the console's thread when Ctrl-C sent the abort. */
    private static final String ABORTING = "console.aborting";

    private final Context c;
    private final Router router;
    private final Cards cards;

    CallRunner(Context context, Router router, Cards cards) {
        this.c = context;
        this.router = router;
        this.cards = cards;
    }

    void run(Input.ToolCall line) throws InterruptedException {
        JsonNode schema = c.catalog.schema(line.tool());
        ObjectNode arguments = ArgumentTyper.arguments(line, schema);
        int n = c.nextLine();
        ActiveCall call = new ActiveCall("c" + n, line.tool());
        ObjectNode params = HostClient.params().put("sessionId", c.sessionId).put("turnId", "t" + n)
                .put("toolCallId", call.toolCallId).put("messageId", "m" + n).put("name", line.tool());
        params.set("arguments", arguments);
        router.begin(call);
        CompletableFuture<JsonNode> answer;
        StreamPrinter output = new StreamPrinter(c.screen::write, c.screen::width);
        c.screen.busy(() -> abort(call));
        try {
            answer = c.client.send("tools.execute", params);
            answer.whenComplete((result, failure) -> call.end());
            follow(call, output);
        } finally {
            c.screen.idle();
            router.end(call);
        }
        output.finish();
        JsonNode result;
        try {
            result = answer.get();
        } catch (ExecutionException e) {
            String why = e.getCause() instanceof HostError error ? error.describe() : String.valueOf(e.getCause());
            c.screen.print(List.of(Row.of(why, Styles.ERROR)));
            return;
        }
        result.path("review").forEach(r -> c.snapshots.add(r.path("snapshotId").asText()));
        if (result.path("details").hasNonNull("backgroundTaskId")) {
            c.tasks.add(result.path("details").get("backgroundTaskId").asText());
        }
        c.screen.print(ResultView.render(new ResultView.Call(line.tool(), arguments, output.printed(), schema,
                c.catalog.names()), result));
    }

    /** The call's events until its answer: output, cards, questions. */
    private void follow(ActiveCall call, StreamPrinter output) throws InterruptedException {
        while (true) {
            ActiveCall.Event e = call.next();
            if (e.isEnd()) {
                return;
            }
            switch (e.method()) {
                case "tool.output" -> output.chunk("stderr".equals(e.params().path("stream").asText()),
                        e.params().path("chunk").asText(""));
                case "permission.request" -> {
                    output.finish();
                    cards.permission(call, e.params());
                }
                case ABORTING -> {
                    output.finish();
                    c.screen.print(List.of(Row.of("^C: stopping " + call.tool + " (tools.abort) ...", Styles.WARN)));
                }
                case "ask.request" -> {
                    output.finish();
                    cards.ask(e.params());
                }
                default -> {
                    // tool.completed and permission.resolved: the answer and the card's key say it already
                }
            }
        }
    }

    /** Ctrl-C while the call runs (from the terminal's signal thread). */
    private void abort(ActiveCall call) {
        if (call.markAborted()) {
            call.deliver(ABORTING, null); // said by the console's thread, between output pieces
        }
        c.client.send("tools.abort", HostClient.params().put("sessionId", c.sessionId)
                .put("toolCallId", call.toolCallId).put("toolName", call.tool));
    }
}
