package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pi-host console} on a real terminal (tmux): the packaged launcher in a window, typed at
 * with send-keys, read back with capture-pane.
 */
class ConsoleIT {

    static final int WIDTH = 100;
    static final String PROMPT = "pi (agent, ask)> ";
    static final String CARD_KEYS = "[o] allow once  [s] allow for this session  [d] deny  [Enter] deny ?";

    @TempDir
    Path workspace;
    @TempDir
    Path data;

    TmuxTerminal console(String... extra) throws Exception {
        return console(WIDTH, extra);
    }

    TmuxTerminal console(int width, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("console", "--workspace", workspace.toString(),
                "--data-dir", data.toString()));
        args.addAll(List.of(extra));
        TmuxTerminal t = TmuxTerminal.start(width, 40, workspace, Map.of(), TmuxTerminal.launcher(args.toArray(String[]::new)));
        try {
            t.await("the prompt", s -> s.contains("pi (agent, "));
        } catch (RuntimeException | Error e) {
            t.close();
            throw e;
        }
        return t;
    }

    @Test
    void readWriteDeniedThenAllowedBashStreamedThenAbortedAndTheAuditListsThem() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "alpha\nbeta\n");
        try (TmuxTerminal t = console()) {
            t.line("Read path=notes.txt");
            String read = t.await("the Read", s -> s.contains("2 | beta"));
            assertThat(read).containsPattern("\\[notes\\.txt#[0-9A-F]{4}]\n1 \\| alpha\n2 \\| beta\n");

            t.line("Write path=denied.txt content=secret");
            t.await("the card", s -> s.contains(CARD_KEYS));
            assertThat(t.screen()).contains("+-- permission: Write (high risk)", "|  path: denied.txt", "|  content: secret");
            t.keys("d");
            t.await("the denial", s -> s.contains("TOOL_DENIED: user denied permission"));
            assertThat(workspace.resolve("denied.txt")).doesNotExist();

            t.line("Write path=new.txt content=\"one\\ntwo\"");
            t.awaitCount(CARD_KEYS, 2);
            t.keys("o");
            String diff = t.await("the diff", s -> s.contains("2 + two"));
            assertThat(diff).contains("-> allowed once", "new.txt  added  +2 -0  (undo: /rollback snap_", "@@ -1,0 +1,2 @@",
                    "1 + one\n2 + two");
            assertThat(workspace.resolve("new.txt")).hasContent("one\ntwo");

            t.line("Bash command=\"sleep 300 & echo $! > child.pid; echo streaming-started; wait\"");
            t.awaitCount(CARD_KEYS, 3);
            t.keys("o");
            String streaming = t.await("the live output", s -> s.contains("\n  streaming-started\n"));
            assertThat(streaming).doesNotContain("TOOL_ABORTED", "exit 0");
            long child = Long.parseLong(Files.readString(workspace.resolve("child.pid")).strip());
            assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).contains(true);
            t.keys("C-c");
            t.await("the abort", s -> s.contains("TOOL_ABORTED: stopped; the command's process tree was ended"));
            await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
            t.await("the prompt again", s -> s.endsWith(PROMPT.strip()) || s.strip().endsWith(PROMPT.strip()));

            t.line("/audit");
            String audit = t.await("the audit", s -> s.contains("TOOL_ABORTED  "));
            assertThat(audit).containsPattern("c1 +Read +allow +ok ")
                    .containsPattern("c2 +Write +deny \\(card\\) +TOOL_DENIED ")
                    .containsPattern("c3 +Write +allow \\(card\\) +ok ")
                    .containsPattern("c4 +Bash +allow \\(card\\) +TOOL_ABORTED ");
        }
    }

    @Test
    void badInputSaysInOneLineHowToWriteItAndRunsNothing() throws Exception {
        try (TmuxTerminal t = console(220)) { // wide enough that each answer is one row
            t.line("Bash command=\"touch quoted.txt");
            t.await("the quote", s -> s.contains("unbalanced \" in command= (opened at character 14): close the quote,"
                    + " e.g. command=\"ls -la\""));
            t.line("Write {\"path\": \"json.txt\", \"content\": }");
            t.await("the JSON", s -> s.contains("bad JSON after Write: Unexpected character ('}' (code 125)) (at character"));
            t.line("Write path=words.txt hello");
            t.await("the word", s -> s.contains("expected key=value but found 'hello': write Write key=value ..."));
            t.line("/frobnicate");
            t.await("the command", s -> s.contains("unknown command /frobnicate: /help lists the commands"));
            t.line("/audit");
            t.await("nothing reached the host", s -> s.contains("no audited calls in this session yet"));

            // well-formed lines the host refuses: its code, the fix, and still nothing ran
            t.line("Wrte path=typo.txt content=x");
            t.await("the unknown tool", s -> s.contains("UNKNOWN_TOOL: unknown tool 'Wrte'; did you mean Write?;"
                    + " /tools lists the tools of this mode"));
            t.line("Write content=x");
            t.await("the missing argument", s -> s.contains("INVALID_ARGUMENT: Write requires the argument 'path' (or its"
                    + " alias 'file_path'); usage: Write [path=<string>] content=<string>"));
            t.line("Bash");
            t.await("the missing command", s -> s.contains("INVALID_ARGUMENT: invalid arguments for Bash: arguments/command:"
                    + " required property 'command' not found; usage: Bash command=<string>"));
            t.line("/audit");
            String audit = t.await("the refusals", s -> Pattern.compile("c3 +Bash +error +INVALID_ARGUMENT").matcher(s).find());
            assertThat(audit).containsPattern("Wrte +deny +UNKNOWN_TOOL").containsPattern("Write +error +INVALID_ARGUMENT")
                    .containsPattern("Bash +error +INVALID_ARGUMENT");
            assertThat(t.screen()).doesNotContain("permission:"); // no card: nothing got as far as the policy
        }
        try (var files = Files.list(workspace)) {
            assertThat(files).isEmpty();
        }
    }

    /** Pins: a key typed (or pasted) before a permission card was shown must never answer it. */
    @Test
    void typeAheadNeverAnswersAPermissionCard() throws Exception {
        try (TmuxTerminal t = console()) {
            // the line and an "o" in one paste: the "o" arrives before the card exists
            t.type("Write path=ahead.txt content=x").keys("Enter").type("o");
            t.await("the card", s -> s.contains(CARD_KEYS));
            assertThat(t.screen()).doesNotContain("-> allowed");
            assertThat(workspace.resolve("ahead.txt")).doesNotExist();
            t.keys("d");
            t.await("the denial", s -> s.contains("TOOL_DENIED: user denied permission"));
            assertThat(workspace.resolve("ahead.txt")).doesNotExist();
        }
    }

    /**
     * Pins: a program the console's host starts must not get the person's terminal as its controlling
     * terminal (an interactive login shell, the PATH probe's bash -lic, would take the terminal's
     * foreground and the console could no longer read; a program could read the keys meant for a card
     * from /dev/tty). Started as the terminal's own program, so the launcher's session-leader path runs too.
     */
    @Test
    void programsTheHostStartsCannotReachTheConsolesTerminal() throws Exception {
        try (TmuxTerminal t = console("--permission-mode", "auto")) {
            long host = hostPid(t.pid());
            assertThat(ttyNr(host)).as("the host's controlling terminal (tty_nr)").isZero();
            // Bash waits for the login-shell probe (an interactive bash -lic started by the host itself)
            t.line("Bash command=\"(exec 3<>/dev/tty) 2>/dev/null && echo tty-reached || echo tty-refused\"");
            t.await("the command", s -> s.contains("  tty-refused") || s.contains("  tty-reached"));
            assertThat(t.history()).contains("\n  tty-refused").doesNotContain("\n  tty-reached");
            // the probe has run: the console still reads its terminal
            t.line("Glob pattern=*");
            t.await("the next answer", s -> s.contains("(no files match *)"));
            assertThat(t.history()).doesNotContain("Input/output error");
        }
    }

    @Test
    void controlCharactersInOutputAreShownNotObeyedAndRowsFitAResizedTerminal() throws Exception {
        Files.writeString(workspace.resolve("esc.txt"), "before\u001b[2J\u001b[31mred\u0007\nsecond\n");
        Files.writeString(workspace.resolve("long.txt"), "x".repeat(150) + "\n");
        try (TmuxTerminal t = console("--permission-mode", "auto")) {
            t.line("Read path=esc.txt");
            t.await("the escapes", s -> s.contains("1 | before^[[2J^[[31mred^G"));
            assertThat(t.history()).contains("pi-host console: session"); // the screen was not cleared
            t.line("Bash command=\"printf 'out\\033[1A\\033[Kput\\n'; seq 1 3000 | tail -n 1\"");
            t.await("the command's escapes", s -> s.contains("  out^[[1A^[[Kput") && s.contains("  3000"));

            t.resize(60, 40);
            t.line("Read path=long.txt");
            String wrapped = t.await("the wrapped line", s -> s.contains("1 | xxxx"));
            List<String> rows = List.of(wrapped.split("\n"));
            int first = rows.indexOf(rows.stream().filter(r -> r.startsWith("1 | x")).reduce((a, b) -> b).orElseThrow());
            assertThat(rows.get(first)).hasSize(60);
            assertThat(rows.get(first + 1)).startsWith("    x").hasSize(60); // continued beside the gutter
            assertThat(rows.get(first + 2)).startsWith("    x");
            t.line("Read path=esc.txt limit=1");
            t.await("the prompt still works", s -> TmuxTerminal.count(s, "[esc.txt#") == 2);
        }
    }

    @Test
    void aloneOnATerminalItIsTheConsoleOnTheCurrentFolderAndCtrlDLeavesWithZero() throws Exception {
        Files.writeString(workspace.resolve("here.txt"), "here\n");
        try (TmuxTerminal t = TmuxTerminal.start(WIDTH, 30, workspace, Map.of("PI_HOST_DATA", data.toString()),
                TmuxTerminal.launcher())) {
            t.await("the prompt", s -> s.contains(PROMPT.strip()));
            assertThat(t.screen()).contains("on " + workspace.toRealPath());
            t.line("Read path=here.txt");
            t.await("the Read", s -> s.contains("1 | here"));
            t.keys("C-d");
            assertThat(t.awaitExit()).isZero();
        }
        assertThat(data.resolve("console-history")).content(StandardCharsets.UTF_8).contains("Read path=here.txt");
    }

    @Test
    void coloursOnlyWhereWantedAndTheTerminalHasThem() throws Exception {
        Files.writeString(workspace.resolve("c.txt"), "c\n");
        Pattern escape = Pattern.compile("\u001b\\[[0-9;]*m");
        try (TmuxTerminal t = console()) {
            t.line("Read path=c.txt");
            t.await("the Read", s -> s.contains("1 | c"));
            assertThat(escape.matcher(t.screenWithColours()).find()).as("colours on a colour terminal").isTrue();
        }
        try (TmuxTerminal t = console("--no-color")) {
            t.line("Read path=c.txt");
            t.await("the Read", s -> s.contains("1 | c"));
            assertThat(escape.matcher(t.screenWithColours()).find()).as("--no-color").isFalse();
        }
        try (TmuxTerminal t = TmuxTerminal.start(WIDTH, 30, workspace, Map.of("NO_COLOR", "1"),
                TmuxTerminal.launcher("console", "--data-dir", data.toString()))) {
            t.line("Read path=c.txt");
            t.await("the Read", s -> s.contains("1 | c"));
            assertThat(escape.matcher(t.screenWithColours()).find()).as("NO_COLOR").isFalse();
        }
    }

    @Test
    void asktoolPlanApprovalAndBackgroundTasksHaveTheirScreens() throws Exception {
        try (TmuxTerminal t = console()) {
            t.line("asktool questions=[{\"question\":\"Which colour?\",\"options\":[\"red\",\"blue\"]},{\"question\":\"Why?\"}]");
            t.await("the first question", s -> s.contains("[2] blue") && s.contains("answer>"));
            t.line("2");
            t.await("the second question", s -> s.contains("2. Why?") && TmuxTerminal.count(s, "answer>") == 2);
            t.line("because");
            t.await("the answers", s -> s.contains("blue") && s.contains("because") && s.contains(PROMPT.strip()));

            t.line("EnterPlanMode");
            t.await("plan mode", s -> s.contains("pi (plan, ask)>"));
            t.line("SubmitPlan plan=\"# Plan\\n- read the notes\\n- write the summary\"");
            t.await("the plan screen", s -> s.contains("[a] approve, then ask") && s.contains("|  - write the summary"));
            t.keys("e");
            t.await("the approval", s -> s.contains("-> approved; the session is back in agent mode with permissions"
                    + " accept-edits") && s.contains("pi (agent, accept-edits)>"));

            t.line("Bash command=\"echo background-done\" runInBackground=true");
            t.awaitCount(CARD_KEYS, 1);
            t.keys("o");
            String started = t.await("the task", s -> s.contains("started in the background as bg_"));
            String id = started.substring(started.indexOf("as bg_") + 3).split("[ \n]")[0];
            t.await("its end", s -> s.contains("* background " + id + " (echo background-done): EXITED, exit 0"));
            t.line("/background read " + id);
            t.await("its output", s -> s.contains(id + ": EXITED") && s.contains("  background-done"));
        }
    }

    @Test
    void tabCompletesToolsArgumentsAndWorkspacePathsAndRollbackUndoesAWrite() throws Exception {
        Files.createDirectories(workspace.resolve("src/main"));
        Files.writeString(workspace.resolve("src/main/only.txt"), "only\n");
        try (TmuxTerminal t = console("--permission-mode", "accept-edits")) {
            t.type("Rea").keys("Tab");
            t.await("the tool name", s -> s.contains("> Read"));
            t.type("pa").keys("Tab");
            t.await("the argument name", s -> s.contains("> Read path="));
            t.type("sr").keys("Tab");
            t.await("the folder", s -> s.contains("> Read path=src/"));
            t.type("ma").keys("Tab");
            t.type("o").keys("Tab");
            t.await("the file", s -> s.contains("> Read path=src/main/only.txt"));
            t.keys("Enter");
            t.await("the Read", s -> s.contains("1 | only"));

            t.line("Write path=made.txt content=made");
            String diff = t.await("the diff", s -> s.contains("(undo: /rollback snap_"));
            String snapshot = diff.substring(diff.indexOf("/rollback snap_") + 10).split("\\)")[0];
            assertThat(workspace.resolve("made.txt")).hasContent("made");
            t.line("/rollback " + snapshot);
            t.await("the rollback", s -> s.contains("rolled back: made.txt"));
            assertThat(workspace.resolve("made.txt")).doesNotExist();
        }
    }

    @Test
    void slashCommandsShowAndChangeTheHostsState() throws Exception {
        try (TmuxTerminal t = console()) {
            t.line("/permissions");
            t.await("the modes", s -> s.contains("mode agent, permissions ask; usage: /permissions ask|accept-edits|auto"));
            t.line("/permissions sometimes");
            t.await("its usage", s -> s.contains("usage: /permissions ask|accept-edits|auto"));
            t.line("/mode plan");
            t.await("plan mode", s -> s.contains("pi (plan, ask)>"));
            t.line("/tools");
            String tools = t.await("the plan tools", s -> s.contains("SubmitPlan"));
            assertThat(tools.substring(tools.lastIndexOf("/tools"))).doesNotContain("\nWrite ", "\nEdit ");
            t.line("Write path=x.txt content=x");
            t.await("the mode's hard deny", s -> s.contains("MODE_DENIED: Write is not available in plan mode; the operating"
                    + " mode forbids it"));
            t.line("/mode agent");
            t.await("agent mode", s -> s.contains("pi (agent, ask)>"));
            t.line("/sessions");
            t.await("the sessions", s -> Pattern.compile("s_[0-9a-f]+ \\* +agent +ask").matcher(s).find());
            t.line("/plugins");
            t.await("the plugins", s -> s.contains("no plugins installed"));
            t.line("/mcp");
            t.await("the MCP servers", s -> s.contains("MCP"));
            t.line("/plan");
            t.await("no plan", s -> s.contains("no plan or goal waits for approval"));
            t.line("/background");
            t.await("no task", s -> s.contains("no background tasks in this session"));
            t.line("/quit");
            assertThat(t.awaitExit()).isZero();
        }
        assertThat(workspace.resolve("x.txt")).doesNotExist();
    }

    @Test
    void aDroppedInPluginIsGrantedFromTheConsoleAndCalledThroughTheSamePipeline() throws Exception {
        Files.createDirectories(data.resolve("plugins"));
        Files.copy(Path.of(System.getProperty("pi.host.samples"), "todo-scan", "target", "todo-scan-1.0.0.jar"),
                data.resolve("plugins").resolve("todo-scan.jar"));
        Files.writeString(workspace.resolve("a.txt"), "// TODO: the marker\n");
        try (TmuxTerminal t = console()) {
            t.line("/plugins");
            t.await("the plugin", s -> Pattern.compile("todo-scan +1\\.0\\.0 +awaiting-grant").matcher(s).find());
            t.line("/plugins grant todo-scan");
            t.await("the grant", s -> s.contains("plugin todo-scan: registered"));
            t.line("plugin_todo_scan_todos");
            t.await("on demand first", s -> s.contains("TOOL_NOT_ACTIVE: ") && s.contains("ToolSearch query=plugin_todo_scan_todos"));
            t.line("ToolSearch query=plugin_todo_scan_todos");
            t.await("the activation", s -> TmuxTerminal.count(s, "plugin_todo_scan_todos") >= 4);
            t.line("plugin_todo_scan_todos");
            t.awaitCount(CARD_KEYS, 1); // a plugin tool without a declared risk is medium: a card under ask
            assertThat(t.screen()).contains("+-- permission: plugin_todo_scan_todos (medium risk)");
            t.keys("o");
            t.await("the plugin's answer", s -> s.contains("a.txt:1") && s.contains("TODO: the marker"));
            t.line("/plugins revoke todo-scan");
            t.await("the revocation", s -> s.contains("plugin todo-scan: awaiting-grant"));
        }
    }

    /** The pid of the console's host: the launcher itself, or its child when the launcher led the session. */
    static long hostPid(long launcher) {
        return ProcessHandle.of(launcher).orElseThrow().children()
                .filter(p -> p.info().command().orElse("").endsWith("java")).findFirst()
                .map(ProcessHandle::pid).orElse(launcher);
    }

    static int ttyNr(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[4]);
    }
}
