package pi.host.mcpserver.internal.session;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Streams one call's output ({@code tool.output}) to the MCP client as progress notifications, in
 * the order the host produced it. Sending may block on a slow HTTP client, and the host publishes
 * output on the tool's own thread, so chunks are queued here and sent from a pooled thread, one at
 * a time.
 */
public final class ProgressRelay {

    private final McpSyncServerExchange exchange;
    private final Object token;
    private final Executor pool;
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private boolean draining;
    private long sent;

    public ProgressRelay(McpSyncServerExchange exchange, Object token, Executor pool) {
        this.exchange = exchange;
        this.token = token;
        this.pool = pool;
    }

    /** Queues one chunk; returns at once. */
    public void chunk(String stream, String text) {
        String message = "stderr".equals(stream) ? "[stderr] " + text : text;
        synchronized (queue) {
            queue.add(message);
            if (draining) {
                return;
            }
            draining = true;
        }
        pool.execute(this::drain);
    }

    private void drain() {
        while (true) {
            String next;
            synchronized (queue) {
                next = queue.poll();
                if (next == null) {
                    draining = false;
                    return;
                }
            }
            try {
                // progress must increase: the count of chunks sent so far
                exchange.progressNotification(new McpSchema.ProgressNotification(token, (double) ++sent, null, next));
            } catch (RuntimeException e) {
                // the client went away; the call itself still ends through tools.execute
                synchronized (queue) {
                    queue.clear();
                    draining = false;
                }
                return;
            }
        }
    }
}
