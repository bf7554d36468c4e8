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
        List<String> args = new java.util.ArrayList<>(List.of("console", "--workspace", workspace.toString(),
                "--data-dir", data.toString()));
        args.addAll(List.of(extra));
        TmuxTerminal t = TmuxTerminal.start(WIDTH, 40, workspace, Map.of(), TmuxTerminal.launcher(args.toArray(String[]::new)));
        t.await("the prompt", s -> s.contains("pi (agent, "));
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
}
