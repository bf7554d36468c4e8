package pi.host.mcpserver.internal.cards;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.mcpserver.internal.session.InFlight;

/**
 * Permission cards as MCP elicitation (form mode): the host's {@code permission.request} for a call
 * an MCP client made is put to that client as a form with one choice, allow once / allow for this
 * session / deny, showing the tool, risk, reason, argument preview and outside path; the answer goes
 * back as {@code permissions.resolve}. Fails closed: a client without the elicitation capability, a
 * decline, a cancel, an answer outside the three choices or any error resolve the card as deny, so
 * the pipeline answers {@code TOOL_DENIED} "user denied permission" and the tool never runs.
 */
public final class CardElicitation {

    /** The three decisions of a card, as {@code permissions.resolve} spells them. */
    static final Set<String> DECISIONS = Set.of("allow-once", "allow-session", "deny");
    /** Longest argument preview put in the message (the structured card in {@code _meta} has it whole). */
    static final int MAX_PREVIEW_CHARS = 2_000;

    private final HostClient host;
    private final Executor pool;

    public CardElicitation(HostClient host, Executor pool) {
        this.host = host;
        this.pool = pool;
    }

    /**
     * Answers a card of one of the front's calls: asks on a pooled thread (the notification arrives
     * on the thread that runs the call, which waits for this answer). {@code call} is null when the
     * card names no call the front is running: denied.
     */
    public void onCard(JsonNode card, InFlight call) {
        String requestId = card.path("requestId").asText();
        try {
            pool.execute(() -> resolve(requestId, call == null ? "deny" : ask(card, call.exchange())));
        } catch (RejectedExecutionException e) {
            resolve(requestId, "deny"); // the front is stopping
        }
    }

    /** The user's decision, or deny whenever there is none to be had. */
    static String ask(JsonNode card, McpSyncServerExchange exchange) {
        if (!supportsForms(exchange.getClientCapabilities())) {
            return "deny";
        }
        try {
            McpSchema.ElicitResult answer = exchange.createElicitation(request(card));
            return decision(answer);
        } catch (RuntimeException e) {
            return "deny"; // the client failed, went away, or refused the request
        }
    }

    /** Whether the client declared elicitation in form mode (an empty elicitation object means form). */
    static boolean supportsForms(McpSchema.ClientCapabilities capabilities) {
        if (capabilities == null || capabilities.elicitation() == null) {
            return false;
        }
        McpSchema.ClientCapabilities.Elicitation e = capabilities.elicitation();
        return e.form() != null || e.url() == null;
    }

    /** The decision an answer carries: only an accepted form with one of the three choices allows. */
    static String decision(McpSchema.ElicitResult answer) {
        if (answer == null || answer.action() != McpSchema.ElicitResult.Action.ACCEPT || answer.content() == null) {
            return "deny";
        }
        Object choice = answer.content().get("decision");
        return choice instanceof String && DECISIONS.contains(choice) ? (String) choice : "deny";
    }

    /** The form: the card as text, one required choice, and the card itself in {@code _meta}. */
    static McpSchema.ElicitFormRequest request(JsonNode card) {
        Map<String, Object> decision = new LinkedHashMap<>();
        decision.put("type", "string");
        decision.put("title", "Decision");
        decision.put("description", "Allow this call once, allow " + card.path("toolName").asText()
                + " for the rest of this session, or deny it");
        decision.put("oneOf", List.of(
                Map.of("const", "allow-once", "title", "Allow once"),
                Map.of("const", "allow-session", "title", "Allow for this session"),
                Map.of("const", "deny", "title", "Deny")));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of("decision", decision));
        schema.put("required", List.of("decision"));
        Map<String, Object> meta = Map.of("pi-host/card", HostClient.json().convertValue(card, Map.class));
        return McpSchema.ElicitRequest.builder(message(card), schema).meta(meta).build();
    }

    /** The card in words, as the desktop shows it. */
    static String message(JsonNode card) {
        StringBuilder m = new StringBuilder();
        m.append("pi-host asks permission: ").append(card.path("toolName").asText())
                .append(" (").append(card.path("risk").asText("unknown")).append(" risk)");
        if (card.hasNonNull("delegate")) {
            m.append(", asked by the delegate ").append(card.get("delegate").asText());
        }
        m.append("\nReason: ").append(card.path("reason").asText(""));
        if (card.hasNonNull("externalPath")) {
            m.append("\nOutside the workspace: ").append(card.get("externalPath").asText());
        }
        String preview = card.path("preview").toString();
        if (preview.length() > MAX_PREVIEW_CHARS) {
            preview = preview.substring(0, MAX_PREVIEW_CHARS) + "...";
        }
        m.append("\nArguments: ").append(preview);
        return m.toString();
    }

    private void resolve(String requestId, String decision) {
        try {
            host.callOnCallingThread("permissions.resolve", HostClient.params().put("requestId", requestId).put("decision", decision));
        } catch (HostError e) {
            // the card ended meanwhile (the call was aborted or the host is stopping): nothing to answer
        }
    }
}
