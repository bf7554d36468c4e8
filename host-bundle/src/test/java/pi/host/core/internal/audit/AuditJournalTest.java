package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.StorageException;

/** The audit journal's segment files: what is written reads back, torn and corrupt tails, segments. */
class AuditJournalTest {

    @TempDir
    Path dir;

    static AuditRecord row(String callId) {
        return new AuditRecord(0, 1_700_000_000_000L, "s1", "t1", callId, "Read", "tr_" + callId, null, "hash",
                "{\"path\":\"a.txt\"}", null, "allow", "read.low", "policy", false, 0, 0.25, 0.05, 0.3, true, null);
    }

    private List<AuditRecord> readAll(Path segment) throws IOException {
        List<AuditRecord> rows = new ArrayList<>();
        AuditJournal.read(segment, rows::add);
        return rows;
    }

    private Path onlySegment() throws IOException {
        List<Path> segments = AuditJournal.segments(dir);
        assertThat(segments).hasSize(1);
        return segments.get(0);
    }

    @Test
    void everyFieldReadsBackAsWrittenNullsAndNonAsciiIncluded() throws Exception {
        AuditRecord full = new AuditRecord(0, 42, "s_é", "turn 日本", "c1", "plugin_x_y", "tr_1", "explorer",
                "ab".repeat(32), "{\"q\":\"Grüße 😀\"}", "allowed", "mode-deny", "plan.write", "mode:plan", true,
                1234.5, 0.125, 0.0625, 1234.6875, false, "TOOL_DENIED", "sha256:" + "c".repeat(64),
                "[{\"path\":\"a.txt\",\"root\":\"workspace\",\"access\":\"read\"}]");
        AuditRecord sparse = new AuditRecord(0, 0, "s", null, null, "Read", null, null, null, null, null, "error",
                null, null, false, 0, 0, 0, 0, false, "STORAGE_ERROR");
        AuditRecord longPreview = new AuditRecord(0, 3, "s", "t", "c3", "Write", "tr", null, "h", "x".repeat(9000), null,
                "allow", "r", "s", false, 0, 0, 0, 0, true, null);
        try (AuditJournal journal = new AuditJournal(dir)) {
            journal.append(full);
            journal.append(sparse);
            journal.append(longPreview);
        }
        assertThat(readAll(onlySegment())).containsExactly(full, sparse, longPreview);
    }

    /** A journal left by a host before the definition hash and the paths (record version 1) is still read back. */
    @Test
    void aVersionOneRecordReadsBackWithoutADefinitionHashOrPaths() {
        AuditRecord r = row("c1");
        java.nio.ByteBuffer v2 = JournalCodec.encode(r, java.nio.ByteBuffer.allocate(16));
        v2.flip();
        byte[] bytes = new byte[v2.remaining() - 8]; // a null hash and null paths are its last 8 bytes (length -1 each)
        v2.get(bytes);
        bytes[0] = 1;
        AuditRecord back = JournalCodec.decode(java.nio.ByteBuffer.wrap(bytes));
        assertThat(back).isEqualTo(r);
        bytes[0] = 3;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JournalCodec.decode(java.nio.ByteBuffer.wrap(bytes)))
                .hasMessageContaining("unknown version 3");
    }

    @Test
    void readingStopsAtATornLastFrame() throws Exception {
        try (AuditJournal journal = new AuditJournal(dir)) {
            for (int i = 0; i < 3; i++) {
                journal.append(row("c" + i));
            }
        }
        Path segment = onlySegment();
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 5); // the process died in the middle of the third write
        }
        assertThat(readAll(segment)).extracting(AuditRecord::toolCallId).containsExactly("c0", "c1");
    }

    @Test
    void readingStopsAtAFrameWhoseChecksumDoesNotMatch() throws Exception {
        long secondFrame;
        try (AuditJournal journal = new AuditJournal(dir)) {
            journal.append(row("c0"));
            secondFrame = Files.size(onlySegment());
            journal.append(row("c1"));
            journal.append(row("c2"));
        }
        Path segment = onlySegment();
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, secondFrame + 20);
            b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
            ch.write(b, secondFrame + 20);
        }
        assertThat(readAll(segment)).extracting(AuditRecord::toolCallId).containsExactly("c0");
    }

    @Test
    void rowsAreTakenInAppendOrderWithTheirPlaceInTheirSegment() throws Exception {
        try (AuditJournal journal = new AuditJournal(dir)) {
            for (int i = 0; i < 5; i++) {
                journal.append(row("c" + i));
            }
            assertThat(journal.backlog()).isEqualTo(5);
            assertThat(journal.appended()).isEqualTo(5);
            List<AuditJournal.Entry> first = journal.take(3);
            assertThat(first).extracting(e -> e.row().toolCallId()).containsExactly("c0", "c1", "c2");
            assertThat(first).extracting(AuditJournal.Entry::index).containsExactly(0, 1, 2);
            assertThat(journal.backlog()).isEqualTo(2);
            assertThat(journal.take(10)).extracting(AuditJournal.Entry::index).containsExactly(3, 4);
            assertThat(journal.backlog()).isZero();
        }
    }

    @Test
    void aFullSegmentIsSealedAndDeletedOnlyOnceItsLastRowIsCopied() throws Exception {
        try (AuditJournal journal = new AuditJournal(dir, 600)) { // about three rows a segment
            for (int i = 0; i < 8; i++) {
                journal.append(row("c" + i));
            }
            List<Path> segments = AuditJournal.segments(dir);
            assertThat(segments).hasSizeGreaterThanOrEqualTo(3);
            List<String> written = new ArrayList<>();
            for (Path segment : segments) {
                readAll(segment).forEach(r -> written.add(r.toolCallId()));
            }
            assertThat(written).containsExactly("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7");
            int inFirst = readAll(segments.get(0)).size();
            List<AuditJournal.Entry> all = journal.take(100);
            assertThat(all).extracting(e -> e.row().toolCallId())
                    .containsExactly("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7");

            // copied up to the last-but-one row of the first segment: nothing can go
            assertThat(journal.copied(all.get(inFirst - 2))).isEmpty();
            assertThat(AuditJournal.segments(dir)).isEqualTo(segments);
            // its last row copied: the first segment goes, the others stay
            assertThat(journal.copied(all.get(inFirst - 1))).containsExactly(segments.get(0).getFileName().toString());
            assertThat(AuditJournal.segments(dir)).isEqualTo(segments.subList(1, segments.size()));
            // the last row copied: every sealed segment goes, the one being written stays
            journal.copied(all.get(all.size() - 1));
            assertThat(AuditJournal.segments(dir)).containsExactly(segments.get(segments.size() - 1));
        }
    }

    @Test
    void closingWithEverythingCopiedDeletesTheLastSegmentAndOtherwiseKeepsIt() throws Exception {
        AuditJournal kept = new AuditJournal(dir);
        kept.append(row("c0"));
        assertThat(kept.close(false)).isNull();
        assertThat(AuditJournal.segments(dir)).hasSize(1);

        AuditJournal next = new AuditJournal(dir);
        assertThat(next.earlier()).hasSize(1); // what the earlier run left, for the copier to read back
        next.append(row("c1"));
        String name = AuditJournal.segments(dir).stream().map(p -> p.getFileName().toString())
                .filter(n -> !n.equals(next.earlier().get(0).getFileName().toString())).findFirst().orElseThrow();
        assertThat(next.close(true)).isEqualTo(name);
        assertThat(AuditJournal.segments(dir)).containsExactlyElementsOf(next.earlier());
    }

    @Test
    void afterRefusalAnAppendFailsAndWritesNothing() throws Exception {
        try (AuditJournal journal = new AuditJournal(dir)) {
            journal.append(row("c0"));
            long size = Files.size(onlySegment());
            journal.refuse();
            assertThatThrownBy(() -> journal.append(row("c1"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("shutting down");
            assertThat(Files.size(onlySegment())).isEqualTo(size);
            assertThat(journal.appended()).isEqualTo(1);
            assertThat(journal.backlog()).isEqualTo(1);
        }
    }

    @Test
    void aJournalThatWroteNothingLeavesNoFile() throws Exception {
        try (AuditJournal journal = new AuditJournal(dir)) {
            assertThat(journal.earlier()).isEmpty();
        }
        assertThat(AuditJournal.segments(dir)).isEmpty();
    }
}
