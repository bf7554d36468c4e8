package pi.host.console.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

/** Results as the host sends them (shapes from docs/protocol.md), rendered as a person reads them. */
class ResultViewTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> render(String tool, String args, boolean streamed, String result) throws Exception {
        return render(tool, args, streamed, null, result);
    }

    private static List<String> render(String tool, String args, boolean streamed, String schema, String result)
            throws Exception {
        return ResultView.render(new ResultView.Call(tool, JSON.readTree(args), streamed,
                schema == null ? null : JSON.readTree(schema), List.of("Read", "Write", "Grep")), JSON.readTree(result))
                .stream().map(Row::plain).toList();
    }

    private static String ok(String text) throws Exception {
        return "{\"ok\":true,\"content\":[{\"type\":\"text\",\"text\":" + JSON.writeValueAsString(text) + "}],\"details\":{}}";
    }

    @Test
    void readShowsTheTagHeaderNumberedLinesInAGutterAndTheNote() throws Exception {
        assertThat(render("Read", "{}", false, ok("[a.txt#5891]\n9\tnine\n10\tten\n[more lines follow; continue with offset 11 of 40]\n")))
                .containsExactly("[a.txt#5891]", " 9 | nine", "10 | ten", "[more lines follow; continue with offset 11 of 40]");
    }

    @Test
    void grepIsGroupedByFileWithMatchesHighlighted() throws Exception {
        String text = "[a.txt#4A1E]\n1:hello\n2-ctx\n--\n9:hello again\n[b/c.txt#0983]\n3:oh hello\n";
        List<Row> rows = ResultView.render(new ResultView.Call("Grep", JSON.readTree("{\"pattern\":\"hel+o\"}"), false, null,
                List.of()), JSON.readTree(ok(text)));
        assertThat(rows.stream().map(Row::plain)).containsExactly("[a.txt#4A1E]", "1 | hello", "2 | ctx", "  ...",
                "9 | hello again", "", "[b/c.txt#0983]", "3 | oh hello");
        Row match = rows.get(1);
        assertThat(match.text().styleAt(4)).isEqualTo(Styles.MATCH);
        assertThat(match.hang()).isEqualTo(4);
    }

    @Test
    void grepFilesAndCountModesAreListsOfPaths() throws Exception {
        assertThat(render("Grep", "{\"pattern\":\"x\",\"outputMode\":\"count\"}", false, ok("a.txt:3\nb.txt:1\n")))
                .containsExactly("a.txt  3 matching lines", "b.txt  1 matching line");
        assertThat(render("Grep", "{\"pattern\":\"x\",\"outputMode\":\"files\"}", false, ok("a.txt\n(no matches for x)\n")))
                .containsExactly("a.txt", "(no matches for x)");
    }

    @Test
    void writeShowsItsReviewAsADiffWithTheSnapshotToRollBack() throws Exception {
        String result = "{\"ok\":true,\"content\":[{\"type\":\"text\",\"text\":\"[a.txt#4A1E]\\nReplaced a.txt (12 bytes, 2 lines).\"}],"
                + "\"review\":[{\"snapshotId\":\"snap_1\",\"path\":\"a.txt\",\"status\":\"modified\",\"additions\":1,\"deletions\":1,"
                + "\"reversible\":true,\"hunks\":[{\"oldStart\":4,\"oldLines\":3,\"newStart\":4,\"newLines\":3,"
                + "\"lines\":[\" four\",\"-five\",\"+FIVE\",\" six\"]}]}]}";
        List<Row> rows = ResultView.render(new ResultView.Call("Write", JSON.readTree("{}"), false, null, List.of()),
                JSON.readTree(result));
        assertThat(rows.stream().map(Row::plain)).containsExactly("[a.txt#4A1E]", "Replaced a.txt (12 bytes, 2 lines).",
                "a.txt  modified  +1 -1  (undo: /rollback snap_1)", "@@ -4,3 +4,3 @@", "4   four", "5 - five", "5 + FIVE",
                "6   six");
        assertThat(rows.get(5).text().styleAt(2)).isEqualTo(Styles.REMOVED);
        assertThat(rows.get(6).text().styleAt(2)).isEqualTo(Styles.ADDED);
    }

    @Test
    void bashShowsItsOutputOnlyWhenItWasNotStreamedThenHowItEnded() throws Exception {
        String failed = "{\"ok\":false,\"errorCode\":\"TOOL_FAILED\",\"content\":[{\"type\":\"text\",\"text\":\"The command exited with"
                + " status 3.\"}],\"details\":{\"exitCode\":3,\"stdout\":\"hi\\n\",\"stderr\":\"err\\n\",\"durationMs\":12}}";
        assertThat(render("Bash", "{}", true, failed)).containsExactly("exit 3 in 12 ms (TOOL_FAILED)");
        assertThat(render("Bash", "{}", false, failed)).containsExactly("  hi", "! err", "exit 3 in 12 ms (TOOL_FAILED)");
        assertThat(render("Bash", "{}", true, "{\"ok\":false,\"errorCode\":\"TOOL_ABORTED\",\"details\":{}}"))
                .containsExactly("TOOL_ABORTED: stopped; the command's process tree was ended");
        assertThat(render("Bash", "{}", false, "{\"ok\":true,\"details\":{\"backgroundTaskId\":\"bg_1\"}}"))
                .containsExactly("started in the background as bg_1 (/background read bg_1)");
    }

    @Test
    void aFailureIsItsCodeItsMessageAndTheFix() throws Exception {
        assertThat(render("Wrte", "{}", false, "{\"ok\":false,\"errorCode\":\"UNKNOWN_TOOL\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"unknown tool 'Wrte'\"}]}"))
                .containsExactly("UNKNOWN_TOOL: unknown tool 'Wrte'; did you mean Write?; /tools lists the tools of this mode");
        assertThat(render("Read", "{}", false, "{\"properties\":{\"path\":{\"type\":\"string\"}}}",
                "{\"ok\":false,\"errorCode\":\"INVALID_ARGUMENT\",\"content\":[{\"type\":\"text\",\"text\":\"Read requires the"
                        + " argument 'path'\"}]}"))
                .containsExactly("INVALID_ARGUMENT: Read requires the argument 'path'; usage: Read [path=<string>]");
        assertThat(render("plugin_x_y", "{}", false, "{\"ok\":false,\"errorCode\":\"TOOL_NOT_ACTIVE\",\"content\":[]}"))
                .containsExactly("TOOL_NOT_ACTIVE: (no message); activate it first: ToolSearch query=plugin_x_y");
        assertThat(render("Write", "{}", false, "{\"ok\":false,\"errorCode\":\"TOOL_DENIED\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"user denied permission\"}]}")).containsExactly("TOOL_DENIED: user denied permission");
    }

    @Test
    void anExternalResultSaysWhereItIs() throws Exception {
        assertThat(render("Read", "{}", false, "{\"ok\":true,\"root\":\"external\",\"path\":\"/etc/hostname\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"[/etc/hostname#1234]\\n1\\th\\n\"}]}"))
                .containsExactly("[/etc/hostname#1234]", "1 | h", "(outside the workspace: /etc/hostname)");
    }

    @Test
    void errorRowsAreStyledAsErrors() throws Exception {
        List<Row> rows = ResultView.render(new ResultView.Call("Read", JSON.readTree("{}"), false, null, List.of()),
                JSON.readTree("{\"ok\":false,\"errorCode\":\"STORAGE_ERROR\",\"content\":[]}"));
        AttributedStyle first = rows.get(0).text().styleAt(0);
        assertThat(first).isEqualTo(Styles.ERROR);
    }
}
