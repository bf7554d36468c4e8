package pi.host.core.internal.review;

import pi.host.spi.AtomicWrite;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.core.internal.execute.HostToolCall;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.PinnedFiles;
import pi.host.spi.ReviewSnapshots;

/**
 * Review snapshots on disk: {@code <data_dir>/snapshots/<sessionId>/<snapshotId>/} holds
 * {@code meta.json} (the entries, their post-change digests and state) and {@code <n>.before}
 * (the previous bytes of entry n). The folder goes with the session ({@link SessionService#delete}).
 * One snapshot per tool call: its entries roll back together.
 */
@Component(service = {ReviewSnapshots.class, ReviewStore.class})
public final class ReviewStore implements ReviewSnapshots {

    static final Pattern SNAPSHOT_ID = Pattern.compile("snap_[0-9a-f]{32}");

    private final Path snapshots;
    private final PinnedFiles files;

    @Activate
    public ReviewStore(@Reference SessionService sessions, @Reference PinnedFiles files) {
        this.snapshots = sessions.dataDir().resolve("snapshots").toAbsolutePath();
        this.files = files;
    }

    private ReviewStore(Path snapshotsRoot, PinnedFiles files) {
        this.snapshots = snapshotsRoot.toAbsolutePath();
        this.files = files;
    }

    /**
     * A store keeping snapshots under {@code snapshotsRoot} (tests). Not a second constructor: SCR
     * would try a two-argument constructor with a Path for injection and log an error.
     */
    public static ReviewStore at(Path snapshotsRoot, PinnedFiles files) {
        return new ReviewStore(snapshotsRoot, files);
    }

    /** The file edge the store and its rollback write through. */
    PinnedFiles files() {
        return files;
    }

    @Override
    public List<Map<String, Object>> record(ToolCall call, List<Change> changes) throws IOException {
        List<Change> kept = new ArrayList<>();
        for (Change c : changes) {
            if (c.path().root() == ResolvedPath.Root.WORKSPACE) {
                kept.add(c);
            }
        }
        if (kept.isEmpty()) {
            return List.of();
        }
        String messageId = call instanceof HostToolCall ? ((HostToolCall) call).messageId() : null;
        String snapshotId = "snap_" + UUID.randomUUID().toString().replace("-", "");
        Path dir = folder(call.sessionId(), snapshotId);
        Files.createDirectories(dir);
        ObjectNode meta = Json.mapper().createObjectNode();
        meta.put("version", 1);
        meta.put("sessionId", call.sessionId());
        meta.put("toolCallId", call.toolCallId());
        meta.put("state", "active");
        ArrayNode entries = meta.putArray("entries");
        List<Map<String, Object>> records = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            Change c = kept.get(i);
            boolean reversible = !c.existed() || c.before() != null;
            ObjectNode e = entries.addObject();
            e.put("path", c.path().absolute().toString());
            e.put("display", c.path().display());
            e.put("existed", c.existed());
            if (c.existed() && c.before() != null) {
                Files.write(dir.resolve(i + ".before"), c.before());
                e.put("before", i + ".before");
            }
            e.put("mode", c.mode());
            e.put("postDigest", c.after() == null ? null : HexFormat.of().formatHex(Digests.sha256(c.after())));
            e.put("reversible", reversible);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("version", 1);
            r.put("snapshotId", snapshotId);
            r.put("messageId", messageId);
            r.put("path", c.path().display());
            r.put("operation", c.operation());
            r.put("status", !c.existed() ? "added" : c.after() == null ? "deleted" : "modified");
            r.put("state", "active");
            Map<String, Object> diff = Hunks.of(c.existed() ? c.before() : null, c.after());
            if (c.existed() && c.before() == null) {
                // the previous content was too large to keep: counts of the new side only
                diff.put("hunks", List.of());
                diff.put("truncated", true);
            }
            r.putAll(diff);
            r.put("reversible", reversible);
            records.add(r);
        }
        writeMeta(dir, meta);
        if (call instanceof HostToolCall) {
            ((HostToolCall) call).attachReview(records);
        }
        return records;
    }

    /** The folder of one snapshot; both ids must be well-formed (they become path components). */
    Path folder(String sessionId, String snapshotId) {
        if (!SNAPSHOT_ID.matcher(snapshotId).matches() || sessionId.isEmpty() || sessionId.contains("/")
                || sessionId.contains("\\") || sessionId.startsWith(".")) {
            throw new IllegalArgumentException("malformed snapshot or session id");
        }
        return snapshots.resolve(sessionId).resolve(snapshotId);
    }

    /** The meta of a snapshot, or null when there is none. */
    ObjectNode meta(String sessionId, String snapshotId) throws IOException {
        Path file = folder(sessionId, snapshotId).resolve("meta.json");
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        JsonNode n = Json.mapper().readTree(file.toFile());
        return n instanceof ObjectNode ? (ObjectNode) n : null;
    }

    byte[] before(String sessionId, String snapshotId, String name) throws IOException {
        return Files.readAllBytes(folder(sessionId, snapshotId).resolve(name));
    }

    void writeMeta(String sessionId, String snapshotId, ObjectNode meta) throws IOException {
        writeMeta(folder(sessionId, snapshotId), meta);
    }

    private void writeMeta(Path dir, ObjectNode meta) throws IOException {
        AtomicWrite.replace(files, dir.resolve("meta.json"), Json.mapper().writeValueAsBytes(meta), null);
    }
}
