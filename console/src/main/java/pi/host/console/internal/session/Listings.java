package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.StreamView;
import pi.host.console.internal.render.Styles;
import pi.host.console.internal.render.Table;

/**
 * The slash commands that list what the host has: its tools, this session's audit rows, sessions,
 * plugins (with grant and revoke), MCP servers and background tasks. Each is the host's own list
 * method, shown as a table.
 */
final class Listings {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final Context c;

    Listings(Context context) {
        this.c = context;
    }

    void tools() {
        Table t = new Table("tool", "risk", "what it does");
        Table onDemand = new Table("on demand", "", "(ToolSearch query=NAME activates one)");
        c.catalog.entries().values().forEach(e -> {
            if (e.onDemand()) {
                onDemand.add(e.name(), "", e.summary());
            } else {
                t.add(1, "high".equals(e.risk()) ? Styles.ERROR : "medium".equals(e.risk()) ? Styles.WARN : Styles.DIM,
                        e.name(), e.risk(), e.summary());
            }
        });
        List<Row> rows = new ArrayList<>(t.rows());
        if (!onDemand.isEmpty()) {
            rows.addAll(onDemand.rows());
        }
        c.screen.print(rows);
    }

    void audit(List<String> w) throws HostError, InterruptedException {
        int limit = 20;
        if (!w.isEmpty()) {
            try {
                limit = Integer.parseInt(w.get(0));
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > 10_000 || w.size() > 1) {
                say("usage: /audit [n]   (n from 1 to 10000)", Styles.ERROR);
                return;
            }
        }
        JsonNode rows = c.client.call("audit.query", HostClient.params().put("sessionId", c.sessionId).put("limit", limit))
                .path("rows");
        Table t = new Table("time", "call", "tool", "decision", "result", "ms", "arguments");
        for (int i = rows.size() - 1; i >= 0; i--) { // oldest first, the newest next to the prompt
            JsonNode r = rows.get(i);
            boolean ok = r.path("ok").asBoolean();
            String decision = r.path("decision").asText() + (r.path("prompted").asBoolean() ? " (card)" : "");
            t.add(4, ok ? Styles.OK : Styles.ERROR, TIME.format(Instant.ofEpochMilli(r.path("at").asLong())),
                    r.path("toolCallId").asText(), r.path("toolName").asText(), decision,
                    ok ? "ok" : r.path("errorCode").asText("error"),
                    String.format("%.1f", r.path("totalMs").asDouble()), r.path("argsPreview").asText(""));
        }
        if (t.isEmpty()) {
            say("no audited calls in this session yet", Styles.DIM);
            return;
        }
        c.screen.print(t.rows(c.screen.width()));
    }

    void sessions() throws HostError, InterruptedException {
        JsonNode list = c.client.call("session.list", HostClient.params());
        JsonNode sessions = list.isArray() ? list : list.path("sessions");
        Table t = new Table("session", "mode", "permissions", "workspace");
        for (JsonNode s : sessions) {
            String id = s.path("sessionId").asText();
            t.add(0, id.equals(c.sessionId) ? Styles.BOLD : Styles.PLAIN, id + (id.equals(c.sessionId) ? " *" : ""),
                    s.path("mode").asText(), s.path("effectivePermissionMode").asText(),
                    s.path("temporary").asBoolean() ? "(temporary)" : s.path("workspaceRoot").asText());
        }
        c.screen.print(t.rows());
    }

    void plugins(List<String> w) throws HostError, InterruptedException {
        if (!w.isEmpty()) {
            if (w.size() != 2 || !(w.get(0).equals("grant") || w.get(0).equals("revoke"))) {
                say("usage: /plugins [grant|revoke <pluginId>]", Styles.ERROR);
                return;
            }
            JsonNode r = c.client.call("plugins." + w.get(0), HostClient.params().put("pluginId", w.get(1))
                    .put("capability", "agent.tool.register"));
            JsonNode p = r.path("plugin");
            say("plugin " + w.get(1) + ": " + (p.isMissingNode() ? "granted " + r.path("granted").asBoolean()
                    : p.path("state").asText()), Styles.OK);
            c.catalog.invalidate();
            return;
        }
        JsonNode list = c.client.call("plugins.list", HostClient.params());
        Table t = new Table("plugin", "version", "state", "tools");
        for (JsonNode p : list.path("plugins")) {
            List<String> tools = new ArrayList<>();
            p.path("tools").forEach(x -> tools.add(x.path("exposedName").asText(x.path("name").asText())));
            String state = p.path("state").asText();
            t.add(2, "registered".equals(state) ? Styles.OK : "awaiting-grant".equals(state) ? Styles.WARN : Styles.ERROR,
                    p.path("id").asText(), p.path("version").asText(), state, String.join(", ", tools));
        }
        if (t.isEmpty()) {
            say("no plugins installed (drop a plugin jar into the data dir's plugins/ folder)", Styles.DIM);
            return;
        }
        c.screen.print(t.rows());
    }

    void mcp() throws HostError, InterruptedException {
        JsonNode list;
        try {
            list = c.client.call("mcp.list", HostClient.params());
        } catch (HostError e) {
            if (e.code() == HostError.METHOD_NOT_FOUND) {
                say("this host has no MCP bridge installed (mcp.list is unknown)", Styles.DIM);
                return;
            }
            throw e;
        }
        Table t = new Table("server", "transport", "state", "tools");
        for (JsonNode s : list.path("servers")) {
            List<String> tools = new ArrayList<>();
            s.path("tools").forEach(x -> tools.add(x.isTextual() ? x.asText() : x.path("name").asText()));
            String state = s.path("state").asText();
            t.add(2, "ready".equals(state) ? Styles.OK : "failed".equals(state) ? Styles.ERROR : Styles.DIM,
                    s.path("id").asText(), s.path("transport").asText(), state
                            + (s.hasNonNull("error") ? " (" + s.get("error").asText() + ")" : ""), String.join(", ", tools));
        }
        if (t.isEmpty()) {
            say("no MCP servers configured (the data dir's mcp.json)", Styles.DIM);
            return;
        }
        c.screen.print(t.rows());
    }

    void background(List<String> w) throws HostError, InterruptedException {
        if (!w.isEmpty()) {
            Set<String> verbs = Set.of("read", "stop", "remove");
            if (w.size() != 2 || !verbs.contains(w.get(0))) {
                say("usage: /background [read|stop|remove <taskId>]", Styles.ERROR);
                return;
            }
            JsonNode r = c.client.call("background." + w.get(0), HostClient.params().put("sessionId", c.sessionId)
                    .put("taskId", w.get(1)));
            if (w.get(0).equals("read")) {
                List<Row> rows = new ArrayList<>();
                rows.add(Row.of(w.get(1) + ": " + r.path("task").path("state").asText(), Styles.BOLD));
                for (String line : r.path("stdout").asText("").split("\n", -1)) {
                    rows.add(StreamView.line(line, false));
                }
                if (!r.path("stderr").asText("").isEmpty()) {
                    for (String line : r.path("stderr").asText().split("\n", -1)) {
                        rows.add(StreamView.line(line, true));
                    }
                }
                c.screen.print(rows);
            } else {
                say(w.get(0) + " " + w.get(1) + ": " + (r.has("task") ? r.path("task").path("state").asText() : "done"),
                        Styles.OK);
            }
            return;
        }
        JsonNode list = c.client.call("background.list", HostClient.params().put("sessionId", c.sessionId));
        Table t = new Table("task", "state", "exit", "command");
        for (JsonNode task : list.path("tasks")) {
            t.add(task.path("taskId").asText(), task.path("state").asText(),
                    task.hasNonNull("exitCode") ? task.get("exitCode").asText() : "", task.path("command").asText());
        }
        if (t.isEmpty()) {
            say("no background tasks in this session (Bash command=... runInBackground=true starts one)", Styles.DIM);
            return;
        }
        c.screen.print(t.rows());
    }

    private void say(String text, org.jline.utils.AttributedStyle style) {
        c.screen.print(List.of(Row.of(text, style)));
    }
}
