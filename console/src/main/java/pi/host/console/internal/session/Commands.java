package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.console.internal.input.Input;
import pi.host.console.internal.input.Suggest;
import pi.host.console.internal.input.Usage;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Styles;

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

    private static final Set<String> MODES = Set.of("agent", "plan", "goal");
    private static final Set<String> PERMISSIONS = Set.of("ask", "accept-edits", "auto");

    private final Context c;
    private final Cards cards;
    private final Listings listings;

    Commands(Context context, Cards cards) {
        this.c = context;
        this.cards = cards;
        this.listings = new Listings(context);
    }

    Next run(Input.Command command) throws InterruptedException {
        List<String> w = command.words();
        try {
            switch (command.name()) {
                case "help" -> help(w);
                case "mode" -> configure("mode", MODES, w, "/mode agent|plan|goal");
                case "permissions" -> configure("permissionMode", PERMISSIONS, w, "/permissions ask|accept-edits|auto");
                case "tools" -> listings.tools();
                case "audit" -> listings.audit(w);
                case "rollback" -> rollback(w);
                case "sessions" -> listings.sessions();
                case "plugins" -> listings.plugins(w);
                case "mcp" -> listings.mcp();
                case "background" -> listings.background(w);
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
        } catch (HostError e) {
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
            throws HostError, InterruptedException {
        if (w.isEmpty()) {
            say("mode " + c.mode() + ", permissions " + c.permissionMode() + "; usage: " + usage, Styles.PLAIN);
            return;
        }
        if (w.size() != 1 || !allowed.contains(w.get(0))) {
            say("usage: " + usage, Styles.ERROR);
            return;
        }
        JsonNode session = c.client.call("session.configure",
                HostClient.params().put("sessionId", c.sessionId).put(field, w.get(0)));
        c.update(session);
        c.catalog.invalidate();
        say("mode " + c.mode() + ", permissions " + c.permissionMode(), Styles.OK);
    }



    private void rollback(List<String> w) throws HostError, InterruptedException {
        if (w.size() != 1) {
            say("usage: /rollback <snapshotId>   (the id is shown under a Write's or Edit's diff)", Styles.ERROR);
            return;
        }
        JsonNode r = c.client.call("review.rollback", HostClient.params().put("sessionId", c.sessionId)
                .put("snapshotId", w.get(0)));
        List<String> paths = new ArrayList<>();
        r.path("paths").forEach(p -> paths.add(p.asText()));
        say(paths.isEmpty() ? "already rolled back" : "rolled back: " + String.join(", ", paths), Styles.OK);
    }





    private void plans() throws HostError, InterruptedException {
        JsonNode pending = c.client.call("plans.pending", HostClient.params().put("sessionId", c.sessionId))
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
