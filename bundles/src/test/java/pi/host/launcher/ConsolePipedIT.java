package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pi-host console} when stdin is not a terminal: a script of lines in, a plain transcript out. */
class ConsolePipedIT {

    @TempDir
    Path workspace;
    @TempDir
    Path data;

    /** Runs the console with {@code script} on stdin; returns stdout, after checking the exit code. */
    private String run(String script, int expectedExit, String... extra) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(TmuxTerminal.launcher("console", "--workspace", workspace.toString(),
                "--data-dir", data.toString()));
        command.addAll(List.of(extra));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(Duration.ofSeconds(60).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(expectedExit);
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void readsTheSameLinesFromStdinAndAnswersCardsWithTheNextLine() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "alpha\n");
        String out = run("Read path=a.txt\nWrite path=yes.txt content=y\no\nWrite path=no.txt content=n\nd\n"
                + "Bash command=\"echo out; echo err >&2; exit 4\"\no\nReed path=a.txt\n/audit\n", 0);
        assertThat(out).contains("> Read path=a.txt\n[a.txt#", "1 | alpha\n",
                "+-- permission: Write (high risk)\n", "> o\n-> allowed once\n", "yes.txt  added  +1 -0",
                "> d\n-> denied\nTOOL_DENIED: user denied permission\n",
                "  out\n", "! err\n", "exit 4 in ", "UNKNOWN_TOOL: unknown tool 'Reed'; did you mean Read?");
        assertThat(out).containsPattern("c3 +Write +deny \\(card\\) +TOOL_DENIED");
        assertThat(out).as("plain text: no escape sequences").doesNotContain("\u001b");
        assertThat(workspace.resolve("yes.txt")).hasContent("y");
        assertThat(workspace.resolve("no.txt")).doesNotExist();
    }

    /** Pins: a card still waiting when the script ends is denied, never left to run. */
    @Test
    void theEndOfInputDeniesAWaitingCardAndAnUnknownAnswerDeniesToo() throws Exception {
        String out = run("Write path=x.txt content=x\nyes please\nWrite path=y.txt content=y\n", 0);
        assertThat(out).contains("-> denied ('y' is not o, s or d)", "-> denied (end of input)");
        assertThat(workspace.resolve("x.txt")).doesNotExist();
        assertThat(workspace.resolve("y.txt")).doesNotExist();
    }

    @Test
    void badOptionsAreUsageErrorsAndAloneWithoutATerminalItPrintsUsage() throws Exception {
        run("", 2, "--permission-mode", "yolo");
        Process alone = new ProcessBuilder(TmuxTerminal.launcher()).redirectErrorStream(true).start();
        alone.getOutputStream().close();
        String usage = new String(alone.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(alone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(alone.exitValue()).isEqualTo(2);
        assertThat(usage).contains("Usage: pi-host", "console", "serve");
    }
}
