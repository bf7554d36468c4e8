package pi.host.mcp.internal.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * What every server connection of the bridge shares: the SDK's mapper and validator, how stdio servers
 * are started, the login PATH, the bridge's threads and the route of a server's elicitation requests.
 *
 * @param work runs what may block (starting a server waits for its initialize): unbounded, so one slow
 *     server never holds up another
 * @param timers only schedules (restarts, health checks), handing the work to {@code work}
 */
public record ServerContext(McpJsonMapper mapper, JsonSchemaValidator validator, StdioLaunch launch,
        Supplier<Optional<String>> loginPath, ExecutorService work, ScheduledExecutorService timers,
        Elicitor elicitor) {

    /** Answers a server's {@code elicitation/create}; must not block the calling (SDK) thread. */
    @FunctionalInterface
    public interface Elicitor {
        Mono<McpSchema.ElicitResult> elicit(Connection connection, McpSchema.ElicitFormRequest request);
    }
}
