package pi.host.mcp.internal.elicit;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import pi.host.api.ToolCall;
import pi.host.mcp.internal.server.Connection;
import pi.host.mcp.internal.server.ServerContext;
import pi.host.spi.McpHost;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Where a server's {@code elicitation/create} goes: to the user of the one session whose call to that
 * server is running, as an {@code ask.request} of that call. Declined when no call of the server runs (a
 * server asks nobody on its own), when calls of several sessions run (the bridge cannot tell whose
 * question it is), when the form cannot be asked as questions, and when the user skips it.
 */
public final class ElicitationRoute implements ServerContext.Elicitor {

    private static final McpSchema.ElicitResult DECLINE =
            new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null);

    private final Supplier<McpHost> host;

    public ElicitationRoute(Supplier<McpHost> host) {
        this.host = host;
    }

    @Override
    public Mono<McpSchema.ElicitResult> elicit(Connection connection, McpSchema.ElicitFormRequest request) {
        // the answer waits for a person: never on the SDK's thread
        return Mono.fromCallable(() -> answer(connection, request)).subscribeOn(Schedulers.boundedElastic());
    }

    McpSchema.ElicitResult answer(Connection connection, McpSchema.ElicitFormRequest request) {
        List<Connection.InFlight> calls = connection.inFlight();
        List<String> sessions = calls.stream().map(f -> f.call().sessionId()).distinct().collect(Collectors.toList());
        McpHost h = host.get();
        if (sessions.size() != 1 || h == null) {
            return DECLINE;
        }
        Optional<ElicitForm> form = ElicitForm.of(connection.serverId(), request.message(), request.requestedSchema());
        if (form.isEmpty()) {
            return DECLINE;
        }
        ToolCall call = calls.get(0).call();
        Optional<List<Object>> answers = h.ask(call.sessionId(), call.turnId(), call.toolCallId(),
                form.get().questions(), call::onCancel);
        Optional<Map<String, Object>> content = answers.flatMap(a -> form.get().content(a));
        return content.map(c -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, c)).orElse(DECLINE);
    }
}
