package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import pi.host.console.internal.client.RpcError;
import pi.host.console.internal.input.Input;
import pi.host.console.internal.input.Suggest;
import pi.host.console.internal.input.Usage;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Styles;
import pi.host.console.internal.render.Table;

/**
 * The slash commands (PROTOCOL.md): each is one or two of the host's own RPC methods, the same the
 * desktop calls, and a listing of the answer.
 */
final class Commands {

    /** What the console does after a command. */
    enum Next {
        GO_ON, QUIT
    }

    static final Map<String, String> HELP = new java.util.LinkedHashMap<>();

    static {
        HELP.put("help", "/help [Tool]            this list, or how to call one tool");
        HELP.put("mode", "/mode agent|plan|goal   the session's operating mode");
        HELP.put("permissions", "/permissions ask|accept-edits|auto   how calls are approved");
        HELP.put("tools", "/tools                  the tools of this mode (and the on-demand ones)");
        HELP.put("audit", "/audit [n]              the last n audited calls of this session (default 20)");
        HELP.put("rollback", "/rollback <snapshotId>  undo a Write or Edit (the id is under its diff)");
        HELP.put("sessions", "/sessions               the host's sessions");
        HELP.put("plugins", "/plugins [grant|revoke <id>]   plugins, their state and tools");
        HELP.put("mcp", "/mcp                    MCP servers, their state and tools");
        HELP.put("background", "/background [read|stop|remove <taskId>]   background tasks");
        HELP.put("plan", "/plan                   plans and goals waiting for approval");
        HELP.put("quit", "/quit                   leave (Ctrl-D does too); background tasks are stopped");
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final Set<String> MODES = Set.of("agent", "plan", "goal");
    private static final Set<String> PERMISSIONS = Set.of("ask", "accept-edits", "auto");

    private final Context c;
    private final Cards cards;

    Commands(Context context, Cards cards) {
        this.c = context;
        this.cards = cards;
    }

    Next run(Input.Command command) throws InterruptedException {
        List<String> w = command.words();
        try {
            switch (command.name()) {
                case "help" -> help(w);
                case "mode" -> configure("mode", MODES, w, "/mode agent|plan|goal");
                case "permissions" -> configure("permissionMode", PERMISSIONS, w, "/permissions ask|accept-edits|auto");
                case "tools" -> tools();
                case "audit" -> audit(w);
                case "rollback" -> rollback(w);
                case "sessions" -> sessions();
                case "plugins" -> plugins(w);
                case "mcp" -> mcp();
                case "background" -> background(w);
                case "plan" -> plans();
                case "quit", "exit" -> {
                    return Next.QUIT;
                }
                default -> {
                    String near = Suggest.closest(command.name(), HELP.keySet());
                    say("unknown command /" + command.name() + (near != null ? " (did you mean /" + near + "?)" : "")
                            + ": /help lists the commands", Styles.ERROR);
                }
            }
        } catch (RpcError e) {
            say(e.describe(), Styles.ERROR);
        }
        return Next.GO_ON;
    }

    private void help(List<String> w) {
        if (!w.isEmpty()) {
            Catalog.Entry e = c.catalog.entries().get(w.get(0));
            if (e == null) {
                say("no tool " + w.get(0) + " in " + c.mode() + " mode: /tools lists them", Styles.ERROR);
                return;
            }
            List<Row> rows = new ArrayList<>();
            rows.add(Row.of(e.name() + " (" + (e.onDemand() ? "on demand" : e.risk() + " risk") + ")", Styles.BOLD));
            rows.add(Row.of(e.summary()));
            if (e.schema() != null) {
                rows.add(Row.of("usage: " + Usage.line(e.name(), e.schema())));
                e.schema().path("properties").fields().forEachRemaining(p -> rows.add(new Row(
                        Row.of("  " + p.getKey() + ": " + p.getValue().path("description").asText(
                                p.getValue().path("type").asText(""))).text(), 4)));
            } else {
                rows.add(Row.of("activate it with: ToolSearch query=" + e.name(), Styles.DIM));
            }
            c.screen.print(rows);
            return;
        }
        List<Row> rows = new ArrayList<>();
        rows.add(Row.of("Type a tool call or a command.", Styles.BOLD));
        rows.add(Row.of("  ToolName key=value ...   e.g. Read path=README.md   Grep pattern=TODO outputMode=files"));
        rows.add(Row.of("                           Bash command=\"ls -la\"   (\"...\" and '...' quote; a value may be JSON)"));
        rows.add(Row.of("  ToolName {json}          e.g. Read {\"path\": \"README.md\", \"limit\": 20}"));
        rows.add(Row.of("A permission card waits for one key: o allow once, s allow for the session, d or Enter deny."));
        rows.add(Row.of("Ctrl-C stops the running call; Tab completes tools, arguments and paths; Ctrl-D leaves."));
        HELP.values().forEach(h -> rows.add(Row.of("  " + h)));
        c.screen.print(rows);
    }

    private void configure(String field, Set<String> allowed, List<String> w, String usage)
            throws RpcError, InterruptedException {
        if (w.isEmpty()) {
            say("mode " + c.mode() + ", permissions " + c.permissionMode() + "; usage: " + usage, Styles.PLAIN);
            return;
        }
        if (w.size() != 1 || !allowed.contains(w.get(0))) {
            say("usage: " + usage, Styles.ERROR);
            return;
        }
        JsonNode session = c.client.call("session.configure",
                c.client.params().put("sessionId", c.sessionId).put(field, w.get(0)));
        c.update(session);
        c.catalog.invalidate();
        say("mode " + c.mode() + ", permissions " + c.permissionMode(), Styles.OK);
    }

    private void tools() {
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

    private void audit(List<String> w) throws RpcError, InterruptedException {
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
        JsonNode rows = c.client.call("audit.query", c.client.params().put("sessionId", c.sessionId).put("limit", limit))
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

    private void rollback(List<String> w) throws RpcError, InterruptedException {
        if (w.size() != 1) {
            say("usage: /rollback <snapshotId>   (the id is shown under a Write's or Edit's diff)", Styles.ERROR);
            return;
        }
        JsonNode r = c.client.call("review.rollback", c.client.params().put("sessionId", c.sessionId)
                .put("snapshotId", w.get(0)));
        List<String> paths = new ArrayList<>();
        r.path("paths").forEach(p -> paths.add(p.asText()));
        say(paths.isEmpty() ? "already rolled back" : "rolled back: " + String.join(", ", paths), Styles.OK);
    }

    private void sessions() throws RpcError, InterruptedException {
        JsonNode list = c.client.call("session.list", c.client.params());
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

    private void plugins(List<String> w) throws RpcError, InterruptedException {
        if (!w.isEmpty()) {
            if (w.size() != 2 || !(w.get(0).equals("grant") || w.get(0).equals("revoke"))) {
                say("usage: /plugins [grant|revoke <pluginId>]", Styles.ERROR);
                return;
            }
            JsonNode r = c.client.call("plugins." + w.get(0), c.client.params().put("pluginId", w.get(1))
                    .put("capability", "agent.tool.register"));
            JsonNode p = r.path("plugin");
            say("plugin " + w.get(1) + ": " + (p.isMissingNode() ? "granted " + r.path("granted").asBoolean()
                    : p.path("state").asText()), Styles.OK);
            c.catalog.invalidate();
            return;
        }
        JsonNode list = c.client.call("plugins.list", c.client.params());
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

    private void mcp() throws RpcError, InterruptedException {
        JsonNode list;
        try {
            list = c.client.call("mcp.list", c.client.params());
        } catch (RpcError e) {
            if (e.code() == RpcError.METHOD_NOT_FOUND) {
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

    private void background(List<String> w) throws RpcError, InterruptedException {
        if (!w.isEmpty()) {
            Set<String> verbs = Set.of("read", "stop", "remove");
            if (w.size() != 2 || !verbs.contains(w.get(0))) {
                say("usage: /background [read|stop|remove <taskId>]", Styles.ERROR);
                return;
            }
            JsonNode r = c.client.call("background." + w.get(0), c.client.params().put("sessionId", c.sessionId)
                    .put("taskId", w.get(1)));
            if (w.get(0).equals("read")) {
                List<Row> rows = new ArrayList<>();
                rows.add(Row.of(w.get(1) + ": " + r.path("task").path("state").asText(), Styles.BOLD));
                for (String line : r.path("stdout").asText("").split("\n", -1)) {
                    rows.add(pi.host.console.internal.render.StreamView.line(line, false));
                }
                if (!r.path("stderr").asText("").isEmpty()) {
                    for (String line : r.path("stderr").asText().split("\n", -1)) {
                        rows.add(pi.host.console.internal.render.StreamView.line(line, true));
                    }
                }
                c.screen.print(rows);
            } else {
                say(w.get(0) + " " + w.get(1) + ": " + (r.has("task") ? r.path("task").path("state").asText() : "done"),
                        Styles.OK);
            }
            return;
        }
        JsonNode list = c.client.call("background.list", c.client.params().put("sessionId", c.sessionId));
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

    private void plans() throws RpcError, InterruptedException {
        JsonNode pending = c.client.call("plans.pending", c.client.params().put("sessionId", c.sessionId))
                .path("approvals");
        int shown = 0;
        for (JsonNode a : pending) {
            if ("pending".equals(a.path("status").asText())) {
                // the record has no content (the notification had it): the artifact is named, Read shows it
                cards.plan(a);
                shown++;
            }
        }
        if (shown == 0) {
            say("no plan or goal waits for approval", Styles.DIM);
        }
    }

    private void say(String text, org.jline.utils.AttributedStyle style) {
        c.screen.print(List.of(Row.of(text, style)));
    }
}
