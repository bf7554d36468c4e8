package pi.host.core.internal.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.core.internal.provenance.ProvenanceStore;
import pi.host.spi.ReviewSnapshots.Change;

class RollbackTest {

    @TempDir
    Path tmp;
    Path ws;
    Path scratch;
    ReviewStore store;
    ProvenanceStore provenance = new ProvenanceStore();

    @BeforeEach
    void setUp() throws Exception {
        ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
        scratch = tmp.resolve("data/scratch/s1");
        store = ReviewStore.at(tmp.resolve("data/snapshots"), FilesComponent.load(tmp.resolve("data/atomic-writes")));
    }

    private ResolvedPath at(String rel) {
        return new ResolvedPath(ResolvedPath.Root.WORKSPACE, ws.resolve(rel), rel);
    }

    private String record(Change... changes) throws Exception {
        List<Map<String, Object>> recs = store.record(call(), List.of(changes));
        return (String) recs.get(0).get("snapshotId");
    }

    private List<String> rollback(String snap) throws Exception {
        return Rollback.run(store, provenance, "s1", snap, ws, scratch);
    }

    @Test
    void restoresThePreviousBytesAndDropsProvenance() throws Exception {
        Path f = Files.writeString(ws.resolve("a.txt"), "new\n");
        provenance.displayed("s1", f, Digests.sha256(Files.readAllBytes(f)), new BitSet());
        String snap = record(new Change(at("a.txt"), "edit", true, "old\n".getBytes(), "new\n".getBytes(), "rw-r-----"));
        assertThat(rollback(snap)).containsExactly("a.txt");
        assertThat(Files.readString(f)).isEqualTo("old\n");
        assertThat(provenance.seen("s1", f)).isEmpty();
        assertThat(store.meta("s1", snap).get("state").asText()).isEqualTo("rolledBack");
        assertThat(rollback(snap)).isEmpty(); // already rolled back: nothing more to do
    }

    @Test
    void aLaterChangeIsAConflictAndNothingIsTouched() throws Exception {
        Path f = Files.writeString(ws.resolve("a.txt"), "new\n");
        String snap = record(new Change(at("a.txt"), "edit", true, "old\n".getBytes(), "new\n".getBytes(), null));
        Files.writeString(f, "later\n");
        assertThatThrownBy(() -> rollback(snap)).isInstanceOf(Rollback.Conflict.class);
        assertThat(Files.readString(f)).isEqualTo("later\n");
    }

    @Test
    void aCreatedFileIsRemoved() throws Exception {
        Path f = Files.writeString(ws.resolve("n.txt"), "x");
        String snap = record(new Change(at("n.txt"), "write", false, null, "x".getBytes(), null));
        rollback(snap);
        assertThat(f).doesNotExist();
    }

    @Test
    void aMovePairRollsBackTogetherOrNotAtAll() throws Exception {
        Path dest = Files.writeString(ws.resolve("b.txt"), "moved\n");
        String snap = record(new Change(at("a.txt"), "delete", true, "orig\n".getBytes(), null, null),
                new Change(at("b.txt"), "edit", false, null, "moved\n".getBytes(), null));
        // the source was created again: conflict, and the destination stays
        Files.writeString(ws.resolve("a.txt"), "someone\n");
        assertThatThrownBy(() -> rollback(snap)).isInstanceOf(Rollback.Conflict.class);
        assertThat(dest).exists();
        Files.delete(ws.resolve("a.txt"));
        rollback(snap);
        assertThat(dest).doesNotExist();
        assertThat(Files.readString(ws.resolve("a.txt"))).isEqualTo("orig\n");
    }

    @Test
    void scratchChangesGetNoRecord() throws Exception {
        Files.createDirectories(scratch);
        assertThat(store.record(call(), List.of(new Change(new ResolvedPath(ResolvedPath.Root.SCRATCH,
                scratch.resolve("x"), scratch.resolve("x").toString()), "write", false, null, new byte[0], null))))
                .isEmpty();
    }

    @Test
    void hunksComeFromTheDiffLibrary() {
        Map<String, Object> d = Hunks.of("a\nb\nc\n".getBytes(), "a\nB\nc\nd\n".getBytes());
        assertThat(d).containsEntry("additions", 2).containsEntry("deletions", 1);
        assertThat(d.get("hunks").toString()).contains("oldStart=1").contains("-b").contains("+B").contains("+d");
        assertThat(Hunks.of(new byte[] {0, 1}, new byte[] {2})).containsEntry("binary", true);
    }

    @Test
    void aRewriteOfALargeFileIsOneReplacedBlockNotAMinutesLongDiff() {
        String a = "a\n".repeat(20_000);
        String b = "head\n" + "b\n".repeat(20_000) + "tail\n";
        long t0 = System.nanoTime();
        Map<String, Object> d = Hunks.of(a.getBytes(), b.getBytes());
        assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
        assertThat(d).containsEntry("additions", 20_002).containsEntry("deletions", 20_000)
                .containsEntry("truncated", true);
    }

    private ToolCall call() {
        return new ToolCall() {
            @Override public String toolName() { return "Edit"; }
            @Override public Map<String, Object> arguments() { return Map.of(); }
            @Override public String sessionId() { return "s1"; }
            @Override public String turnId() { return "t"; }
            @Override public String toolCallId() { return "c"; }
            @Override public Optional<ResolvedPath> path() { return Optional.empty(); }
            @Override public Path workspaceRoot() { return ws; }
            @Override public Path scratchDir() { return scratch; }
            @Override public String traceId() { return "tr"; }
            @Override public Instant deadline() { return Instant.MAX; }
            @Override public boolean isCancelled() { return false; }
            @Override public void onCancel(Runnable action) { }
            @Override public void output(Stream stream, String chunk) { }
        };
    }
}
