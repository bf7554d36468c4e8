package org.example.todoscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/** The scanner on real files in a temporary workspace. */
class TodoScanToolTest {

    /** The workspace and a folder beside it, in one temporary folder (so links between them are cleaned up quietly). */
    @TempDir
    Path base;
    Path ws;
    Path outside;

    private final TodoScanTool tool = new TodoScanTool();

    @BeforeEach
    void folders() throws Exception {
        ws = Files.createDirectory(base.resolve("ws"));
        outside = Files.createDirectory(base.resolve("outside"));
    }

    @Test
    void listsEveryMarkerWithItsFileAndLineInPathOrder() throws Exception {
        write("src/b/B.java", "class B {\n  // FIXME leaks\n}\n");
        write("src/a/A.java", "// TODO split\nclass A {}\n/* XXX why */\n");
        write("README.md", "nothing here\n");
        ToolResult r = run(Map.of());
        assertTrue(r.ok(), r::toString);
        assertEquals("src/a/A.java:1: // TODO split\nsrc/a/A.java:3: /* XXX why */\nsrc/b/B.java:2: // FIXME leaks",
                text(r));
        assertEquals(3, r.details().get("matches"));
        assertEquals(3, r.details().get("files"));
        assertEquals(Map.of("TODO", 1L, "FIXME", 1L, "XXX", 1L), r.details().get("byMarker"));
        assertFalse(r.truncated());
    }

    @Test
    void onlyWholeUpperCaseWordsCount() throws Exception {
        write("a.txt", "todo lower\nTODOS plural\nMY_TODO joined\nTODO: real\n");
        assertEquals("a.txt:4: TODO: real", text(run(Map.of())));
    }

    @Test
    void skipsHiddenDependencyAndBuildFoldersBinaryAndLargeFilesAndLinks() throws Exception {
        write(".git/x.txt", "TODO hidden folder\n");
        write(".env", "TODO hidden file\n");
        write("node_modules/m/index.js", "// TODO dependency\n");
        write("target/Gen.java", "// TODO generated\n");
        Files.write(ws.resolve("bin.dat"), new byte[] {'T', 'O', 'D', 'O', ' ', 0, 1});
        write("big.txt", "TODO large\n" + "x".repeat((int) MarkerScanner.MAX_FILE_BYTES));
        Files.writeString(outside.resolve("o.txt"), "TODO outside\n");
        Files.createSymbolicLink(ws.resolve("link.txt"), outside.resolve("o.txt"));
        Files.createSymbolicLink(ws.resolve("linkdir"), outside);
        write("kept.txt", "TODO kept\n");
        assertEquals("kept.txt:1: TODO kept", text(run(Map.of())));
    }

    @Test
    void onlyTheAskedMarkersUnderTheAskedPath() throws Exception {
        write("a/one.txt", "TODO a\nHACK b\n");
        write("b/two.txt", "HACK c\n");
        ToolResult r = run(Map.of("path", "a", "markers", List.of("HACK")));
        assertEquals("a/one.txt:2: HACK b", text(r));
        assertEquals(Map.of("HACK", 1L), r.details().get("byMarker"));
        assertEquals("b/two.txt:1: HACK c", text(run(Map.of("path", "b/two.txt", "markers", List.of("HACK")))));
    }

    @Test
    void theLimitCutsTheListAndSaysSo() throws Exception {
        write("many.txt", "TODO\n".repeat(10));
        ToolResult r = run(Map.of("limit", 3));
        assertTrue(r.truncated());
        assertEquals(List.of("many.txt:1: TODO", "many.txt:2: TODO", "many.txt:3: TODO",
                "[stopped at 3 matches; narrow it with path or markers]"), List.of(text(r).split("\n")));
    }

    @Test
    void longLinesAreShortened() throws Exception {
        write("long.txt", "TODO " + "y".repeat(500) + "\n");
        String line = text(run(Map.of()));
        assertEquals("long.txt:1: ".length() + MarkerScanner.MAX_TEXT_CHARS + 1, line.length());
        assertTrue(line.endsWith("…"));
    }

    @Test
    void noMarkersIsASuccessThatSaysSo() throws Exception {
        write("a.txt", "clean\n");
        ToolResult r = run(Map.of());
        assertTrue(r.ok());
        assertEquals("no TODO, FIXME, XXX markers in 1 files", text(r));
    }

    @Test
    void pathsOutsideTheWorkspaceAreRefused() throws Exception {
        Files.createSymbolicLink(ws.resolve("out"), outside);
        Map<String, String> expected = Map.of(
                "../x", "path must be relative to the workspace and stay inside it: ../x",
                "/etc", "path must be relative to the workspace and stay inside it: /etc",
                "missing", "no such file or folder in the workspace: missing",
                "out", "path leads out of the workspace through a link: out");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            ToolResult r = run(Map.of("path", e.getKey()));
            assertEquals(ErrorCode.INVALID_ARGUMENT, r.errorCode(), e.getKey());
            assertEquals(e.getValue(), text(r));
        }
    }

    @Test
    void badMarkersAndLimitsAreInvalid() throws Exception {
        assertEquals("markers must be a non-empty list of [TODO, FIXME, XXX, HACK]",
                text(run(Map.of("markers", List.of("todo")))));
        assertEquals("limit must be a whole number from 1 to 1000", text(run(Map.of("limit", 0))));
    }

    @Test
    void aCancelledCallStopsAndSaysSo() throws Exception {
        write("a.txt", "TODO\n");
        FakeToolCall call = new FakeToolCall(ws, Map.of());
        call.cancel();
        ToolResult r = tool.execute(call);
        assertEquals(ErrorCode.TOOL_ABORTED, r.errorCode());
        assertEquals("scan cancelled after 0 files", text(r));
    }

    @Test
    void aScanThatRunsOutOfTimeAnswersWithWhatItHas() throws Exception {
        write("a.txt", "TODO\n");
        ToolResult r = tool.execute(new FakeToolCall(ws, Map.of(), Duration.ofMillis(500)));
        assertTrue(r.ok());
        assertTrue(r.truncated());
        assertTrue(text(r).endsWith("[stopped after 0 files (time or file budget); narrow it with path]"), text(r));
    }

    private void write(String relative, String content) throws Exception {
        Path file = ws.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private ToolResult run(Map<String, Object> args) throws Exception {
        return tool.execute(new FakeToolCall(ws, args));
    }

    private static String text(ToolResult r) {
        return String.join("\n", r.text());
    }
}
