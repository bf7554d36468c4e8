package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.console.internal.render.CardView;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Styles;
import pi.host.console.internal.screen.Screen;

/**
 * The person's answers: a permission card with one key ({@code o} once, {@code s} session,
 * {@code d} or Enter deny; anything else in a script denies too), asktool's questions, and a plan
 * waiting for approval. Each answer goes back through the same methods the desktop uses
 * ({@code permissions.resolve}, {@code asks.resolve}, {@code plans.resolve}).
 */
final class Cards {

    private final Context c;

    Cards(Context context) {
        this.c = context;
    }

    void permission(ActiveCall call, JsonNode card) throws InterruptedException {
        String requestId = card.path("requestId").asText();
        c.screen.print(CardView.permission(card));
        int key = c.screen.readKey(CardView.permissionKeys(), "osd", () -> call.cardOpen(requestId));
        if (key == Screen.WITHDRAWN) {
            c.screen.print(List.of(Row.of("-> the card was withdrawn (the call was stopped)", Styles.DIM)));
            return;
        }
        String decision = key == 'o' ? "allow-once" : key == 's' ? "allow-session" : "deny";
        String said = key == 'o' ? "allowed once" : key == 's' ? "allowed for this session"
                : key == 'd' || key == Screen.ENTER ? "denied"
                : key == Screen.END ? "denied (end of input)" : "denied ('" + (char) key + "' is not o, s or d)";
        try {
            c.client.call("permissions.resolve", HostClient.params().put("requestId", requestId).put("decision", decision));
            c.screen.print(List.of(Row.of("-> " + said, "deny".equals(decision) ? Styles.REMOVED : Styles.OK)));
        } catch (HostError e) {
            c.screen.print(List.of(Row.of("-> the card had already ended: " + e.describe(), Styles.DIM)));
        }
    }

    void ask(JsonNode request) throws InterruptedException {
        JsonNode questions = request.path("questions");
        c.screen.print(CardView.askHeader(request));
        ArrayNode answers = HostClient.json().createArrayNode();
        boolean stopped = false;
        for (int i = 0; i < questions.size(); i++) {
            JsonNode q = questions.get(i);
            c.screen.print(CardView.question(i, q));
            String line = stopped ? null : c.screen.readAnswer("   answer> ");
            if (line == null) {
                stopped = true;
                answers.addNull();
                continue;
            }
            answers.add(answer(q, line.strip()));
        }
        try {
            c.client.call("asks.resolve", HostClient.params().put("requestId", request.path("requestId").asText())
                    .set("answers", answers));
        } catch (HostError e) {
            c.screen.print(List.of(Row.of("-> the questions had already ended: " + e.describe(), Styles.DIM)));
        }
    }

    /** An answer as asks.resolve takes it: null (skipped), the chosen labels, or the typed text. */
    static JsonNode answer(JsonNode q, String typed) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (typed.isEmpty()) {
            return nodes.nullNode();
        }
        boolean multi = q.path("multiSelect").asBoolean();
        List<String> labels = new ArrayList<>();
        q.path("options").forEach(o -> labels.add(o.isTextual() ? o.asText() : o.path("label").asText()));
        List<String> chosen = new ArrayList<>();
        if (!labels.isEmpty() && typed.matches("\\d+(\\s*,\\s*\\d+)*")) {
            for (String n : typed.split("\\s*,\\s*")) {
                int i = Integer.parseInt(n);
                if (i >= 1 && i <= labels.size()) {
                    chosen.add(labels.get(i - 1));
                }
            }
        }
        if (chosen.isEmpty()) {
            chosen.add(typed);
        }
        if (!multi) {
            return nodes.textNode(chosen.get(0));
        }
        ArrayNode array = nodes.arrayNode();
        chosen.forEach(array::add);
        return array;
    }

    static ArrayNode skipped(HostClient client, int questions) {
        ArrayNode a = HostClient.json().createArrayNode();
        for (int i = 0; i < questions; i++) {
            a.addNull();
        }
        return a;
    }

    /** A plan or goal waiting for approval: show it, take one key, resolve (Enter leaves it for /plan). */
    void plan(JsonNode approval) throws InterruptedException {
        String content = approval.path("content").asText(null);
        c.screen.print(CardView.plan(approval, content));
        int key = c.screen.readKey(CardView.planKeys(), "aeur", () -> true);
        String mode = key == 'a' ? "ask" : key == 'e' ? "accept-edits" : key == 'u' ? "auto" : null;
        if (mode == null && key != 'r') {
            c.screen.print(List.of(Row.of("-> left pending; /plan shows it again", Styles.DIM)));
            return;
        }
        ObjectNode params = HostClient.params().put("approvalId", approval.path("approvalId").asText())
                .put("sessionId", c.sessionId).put("decision", mode == null ? "reject" : "approve");
        if (mode != null) {
            params.put("permissionMode", mode);
        }
        try {
            JsonNode resolved = c.client.call("plans.resolve", params);
            c.screen.print(List.of(Row.of("-> " + resolved.path("status").asText()
                    + (mode != null ? "; the session is back in agent mode with permissions " + mode : ""),
                    mode != null ? Styles.OK : Styles.REMOVED)));
            refreshSession();
        } catch (HostError e) {
            c.screen.print(List.of(Row.of("-> " + e.describe(), Styles.ERROR)));
        }
    }

    void refreshSession() throws InterruptedException {
        try {
            c.update(c.client.call("session.get", HostClient.params().put("sessionId", c.sessionId)));
            c.catalog.invalidate();
        } catch (HostError e) {
            c.screen.print(List.of(Row.of(e.describe(), Styles.ERROR)));
        }
    }
}
