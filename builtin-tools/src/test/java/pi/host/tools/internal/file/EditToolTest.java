package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

class EditToolTest {

    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
    }

    private String readTag(String path) throws Exception {
        return Fixture.tag(fx.read(path));
    }

    @Test
    void replacesInsertsAndDeletesByTheTaggedNumbersAtOnce() throws Exception {
        fx.file("a.txt", "1\n2\n3\n4\n5\n");
        ToolResult r = fx.edit("a.txt", readTag("a.txt"),
                "PUT >0:\n+top\nPUT 2.=3:\n+two\n\nDEL 5.=5\nPUT >$:\n+end\n");
        assertThat(r.ok()).as(r.toString()).isTrue();
        assertThat(fx.content("a.txt")).isEqualTo("top\n1\ntwo\n4\nend\n");
        assertThat(r.text().get(0)).startsWith("[a.txt#" + Tags.tag(Tags.digest(Files.readAllBytes(fx.ws.resolve("a.txt")))) + "]\n")
                .contains("1\ttop\n3\ttwo\n5\tend\n");
        // the new tag is good for the next Edit, which may anchor on carried-over and changed lines
        assertThat(fx.edit("a.txt", Fixture.tag(r), "PUT 4.=4:\n+four").ok()).isTrue();
        assertThat(fx.content("a.txt")).isEqualTo("top\n1\ntwo\nfour\nend\n");
    }

    @Test
    void aSuccessfulWorkspaceEditCarriesAReviewRecordWithHunks() throws Exception {
        fx.file("a.txt", "a\nb\nc\n");
        fx.edit("a.txt", readTag("a.txt"), "PUT 2.=2:\n+B");
        assertThat(fx.lastReview).hasSize(1);
        Map<String, Object> rec = fx.lastReview.get(0);
        assertThat(rec).containsEntry("version", 1).containsEntry("path", "a.txt").containsEntry("operation", "edit")
                .containsEntry("status", "modified").containsEntry("state", "active")
                .containsEntry("additions", 1).containsEntry("deletions", 1).containsEntry("reversible", true);
        assertThat(rec.get("snapshotId").toString()).matches("snap_[0-9a-f]{32}");
        assertThat(rec.get("hunks").toString()).contains("-b").contains("+B");
    }

    @Test
    void preservesCrlfBomMissingFinalNewlineAndForeignBytesOutsideTheEditedLines() throws Exception {
        byte[] latin1 = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
        byte[] before = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "x\r\n".getBytes(), latin1,
                "\r\nold\r\nlast".getBytes());
        fx.bytes("w.txt", before);
        assertThat(fx.edit("w.txt", readTag("w.txt"), "PUT 3.=3:\n+new\n+newer").ok()).isTrue();
        byte[] expected = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "x\r\n".getBytes(), latin1,
                "\r\nnew\r\nnewer\r\nlast".getBytes());
        assertThat(Files.readAllBytes(fx.ws.resolve("w.txt"))).isEqualTo(expected);
        // an edit of the last line keeps the missing final newline
        assertThat(fx.edit("w.txt", readTag("w.txt"), "PUT 5.=5:\n+LAST").ok()).isTrue();
        assertThat(new String(Files.readAllBytes(fx.ws.resolve("w.txt")), StandardCharsets.ISO_8859_1))
                .endsWith("newer\r\nLAST");
    }

    @Test
    void parseFailureNamesTheLineAndWritesNothing() throws Exception {
        fx.file("a.txt", "a\nb\n");
        String tag = readTag("a.txt");
        ToolResult r = fx.edit("a.txt", tag, "PUT 1.=1:\n+x\nreplace b with y\n");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.EDIT_PARSE_FAILED);
        assertThat(r.text().get(0)).contains("ops line 3").contains("replace b with y");
        assertThat(fx.edit("a.txt", tag, "PUT 1.=1\n+x").text().get(0)).contains("ends with ':'");
        assertThat(fx.content("a.txt")).isEqualTo("a\nb\n");
        assertThat(fx.lastReview).isEmpty();
    }

    @Test
    void rangeOutsideTheFileOrOverlappingIsInvalidAndWritesNothing() throws Exception {
        fx.file("a.txt", "a\nb\nc\n");
        String tag = readTag("a.txt");
        ToolResult out = fx.edit("a.txt", tag, "DEL 3.=4");
        assertThat(out.errorCode()).isEqualTo(ErrorCode.EDIT_RANGE_INVALID);
        assertThat(out.text().get(0)).contains("DEL 3.=4").contains("3 lines");
        fx.turn = "t2";
        ToolResult overlap = fx.edit("a.txt", tag, "PUT 1.=2:\n+x\nDEL 2.=3");
        assertThat(overlap.errorCode()).isEqualTo(ErrorCode.EDIT_RANGE_INVALID);
        assertThat(overlap.text().get(0)).contains("overlaps");
        assertThat(fx.edit("a.txt", tag, "PUT >1:\n+x\nDEL 1.=2").errorCode()).isEqualTo(ErrorCode.EDIT_RANGE_INVALID);
        assertThat(fx.content("a.txt")).isEqualTo("a\nb\nc\n");
    }

    @Test
    void tagMismatchWhenTheFileChangedOrWasNeverShownWritesNothing() throws Exception {
        fx.file("a.txt", "a\nb\n");
        ToolResult never = fx.edit("a.txt", "0000", "PUT 1.=1:\n+x");
        assertThat(never.errorCode()).isEqualTo(ErrorCode.EDIT_TAG_MISMATCH);
        assertThat(never.text().get(0)).contains("never shown");
        String tag = readTag("a.txt");
        fx.file("a.txt", "a\nB\n"); // changed behind the session's back
        assertThat(fx.edit("a.txt", tag, "PUT 1.=1:\n+x").errorCode()).isEqualTo(ErrorCode.EDIT_TAG_MISMATCH);
        assertThat(fx.content("a.txt")).isEqualTo("a\nB\n");
    }

    @Test
    void aWrongTagForTheShownContentIsAMismatchAndBinaryFilesAreRefused() throws Exception {
        fx.file("a.txt", "a\n");
        String tag = readTag("a.txt");
        String wrong = tag.equals("0000") ? "0001" : "0000";
        ToolResult r = fx.edit("a.txt", wrong, "PUT 1.=1:\n+b");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.EDIT_TAG_MISMATCH);
        assertThat(r.text().get(0)).contains("is not the tag");
        assertThat(fx.edit("a.txt", "#" + tag.toLowerCase(), "PUT 1.=1:\n+b").ok()).isTrue();
        fx.bytes("b.bin", new byte[] {'x', 0, '\n'});
        assertThat(fx.edit("b.bin", "0000", "DEL 1.=1").errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(Files.readAllBytes(fx.ws.resolve("b.bin"))).containsExactly('x', 0, '\n');
    }

    @Test
    void unseenLinesAreRevealedMergedAndTheUnchangedRetryApplies() throws Exception {
        fx.file("a.txt", "1\n2\n3\n4\n5\n");
        String tag = Fixture.tag(fx.read("a.txt", "limit", 2));
        ToolResult r = fx.edit("a.txt", tag, "PUT 4.=5:\n+x");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.EDIT_LINES_UNSEEN);
        assertThat(r.text().get(0)).contains("4\t4\n5\t5\n");
        assertThat(fx.content("a.txt")).isEqualTo("1\n2\n3\n4\n5\n");
        ToolResult retry = fx.edit("a.txt", tag, "PUT 4.=5:\n+x");
        assertThat(retry.ok()).as(retry.toString()).isTrue();
        assertThat(fx.content("a.txt")).isEqualTo("1\n2\n3\nx\n");
        assertThat(fx.guard.failures(probeCall(), fx.ws.resolve("a.txt"))).isZero();
    }

    @Test
    void theThirdCountedFailureOnAPathIsRetryLimitWithTerminate() throws Exception {
        fx.file("a.txt", "a\n");
        String tag = readTag("a.txt");
        assertThat(fx.edit("a.txt", tag, "bogus").errorCode()).isEqualTo(ErrorCode.EDIT_PARSE_FAILED);
        assertThat(fx.edit("a.txt", tag, "DEL 9.=9").errorCode()).isEqualTo(ErrorCode.EDIT_RANGE_INVALID);
        ToolResult third = fx.edit("a.txt", tag, "bogus");
        assertThat(third.errorCode()).isEqualTo(ErrorCode.EDIT_RETRY_LIMIT);
        assertThat(third.terminate()).isTrue();
        assertThat(third.text().get(0)).contains("EDIT_PARSE_FAILED").contains("PUT 48.=48:");
        // even a valid Edit is refused for the rest of the turn; nothing was written
        assertThat(fx.edit("a.txt", tag, "PUT 1.=1:\n+b").errorCode()).isEqualTo(ErrorCode.EDIT_RETRY_LIMIT);
        assertThat(fx.content("a.txt")).isEqualTo("a\n");
        // another turn (or delegate run) has its own count
        fx.turn = "t2";
        assertThat(fx.edit("a.txt", tag, "PUT 1.=1:\n+b").ok()).isTrue();
    }

    @Test
    void aSecondUnseenOnThePathCounts() throws Exception {
        fx.file("a.txt", "1\n2\n3\n4\n");
        String tag = Fixture.tag(fx.read("a.txt", "limit", 1));
        assertThat(fx.edit("a.txt", tag, "DEL 2.=2").errorCode()).isEqualTo(ErrorCode.EDIT_LINES_UNSEEN);
        assertThat(fx.edit("a.txt", tag, "DEL 3.=3").errorCode()).isEqualTo(ErrorCode.EDIT_LINES_UNSEEN);
        assertThat(fx.guard.failures(probeCall(), fx.ws.resolve("a.txt"))).isEqualTo(1);
    }

    @Test
    void mvMovesWithTwoRecordsUnderOneSnapshot() throws Exception {
        fx.file("a.txt", "a\nb\n");
        ToolResult r = fx.edit("a.txt", readTag("a.txt"), "PUT 1.=1:\n+A\nMV sub/b.txt");
        assertThat(r.ok()).as(r.toString()).isTrue();
        assertThat(fx.ws.resolve("a.txt")).doesNotExist();
        assertThat(fx.content("sub/b.txt")).isEqualTo("A\nb\n");
        assertThat(r.text().get(0)).startsWith("[sub/b.txt#");
        List<Map<String, Object>> recs = fx.lastReview;
        assertThat(recs).extracting(m -> m.get("status")).containsExactly("deleted", "added");
        assertThat(recs.get(0).get("snapshotId")).isEqualTo(recs.get(1).get("snapshotId"));
        // the moved file can be edited with the returned tag
        assertThat(fx.edit("sub/b.txt", Fixture.tag(r), "DEL 2.=2").ok()).isTrue();
    }

    @Test
    void mvOutsideTheRootsOrOntoAnExistingFileIsRefusedAndWritesNothing() throws Exception {
        fx.file("a.txt", "a\n");
        fx.file("b.txt", "b\n");
        String tag = readTag("a.txt");
        ToolResult out = fx.edit("a.txt", tag, "MV ../outside.txt");
        assertThat(out.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(tmp.resolve("outside.txt")).doesNotExist();
        assertThat(fx.edit("a.txt", tag, "MV b.txt").text().get(0)).contains("exists");
        assertThat(fx.content("a.txt")).isEqualTo("a\n");
        assertThat(fx.content("b.txt")).isEqualTo("b\n");
    }

    @Test
    void mvThroughALinkOutOfTheRootIsRefusedAndWritesNothing() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(fx.ws.resolve("out"), elsewhere);
        fx.file("a.txt", "a\n");
        ToolResult r = fx.edit("a.txt", readTag("a.txt"), "MV out/stolen.txt");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(elsewhere.resolve("stolen.txt")).doesNotExist();
        assertThat(fx.content("a.txt")).isEqualTo("a\n");
    }

    @Test
    void remRemovesWithADeletionRecord() throws Exception {
        fx.file("a.txt", "a\n");
        assertThat(fx.edit("a.txt", readTag("a.txt"), "REM").ok()).isTrue();
        assertThat(fx.ws.resolve("a.txt")).doesNotExist();
        assertThat(fx.lastReview.get(0)).containsEntry("status", "deleted").containsEntry("operation", "delete");
        assertThat(fx.provenance.seen(fx.session, fx.ws.resolve("a.txt"))).isEmpty();
    }

    @Test
    void aHardLinkedTargetIsReplacedNeverModifiedInPlace() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "secret\n");
        Files.createLink(fx.ws.resolve("link.txt"), outside);
        assertThat(fx.edit("link.txt", readTag("link.txt"), "PUT 1.=1:\n+changed").ok()).isTrue();
        assertThat(Files.readString(outside)).isEqualTo("secret\n");
        assertThat(fx.content("link.txt")).isEqualTo("changed\n");
    }

    @Test
    void aFileSwappedForALinkIsNeverReadOrWrittenThrough() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "secret\n");
        fx.file("a.txt", "a\n");
        String tag = readTag("a.txt");
        Files.delete(fx.ws.resolve("a.txt"));
        Files.createSymbolicLink(fx.ws.resolve("a.txt"), outside);
        ToolResult r = fx.edit("a.txt", tag, "PUT 1.=1:\n+pwned");
        assertThat(r.ok()).isFalse();
        assertThat(Files.readString(outside)).isEqualTo("secret\n");
    }

    @Test
    void scratchEditsGetNoReviewRecord() throws Exception {
        Path f = Files.writeString(fx.scratch.resolve("s.txt"), "a\n");
        String tag = Fixture.tag(fx.read(f.toString()));
        assertThat(fx.edit(f.toString(), tag, "PUT 1.=1:\n+b").ok()).isTrue();
        assertThat(fx.lastReview).isEmpty();
    }

    private pi.host.api.ToolCall probeCall() {
        return new FakeToolCall(fx.ws, Map.of()).toolName("Edit").ids(fx.session, fx.turn).scratchDir(fx.scratch);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
