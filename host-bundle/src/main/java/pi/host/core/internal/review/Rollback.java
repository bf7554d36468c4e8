package pi.host.core.internal.review;

import pi.host.spi.AtomicWrite;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.core.internal.paths.PathException;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.paths.Resolution;
import pi.host.spi.Provenance;

/**
 * Rolls one snapshot back (spec §4c): every entry must still be exactly what the call left (the
 * full post-change digest, or absent for a removed file) and must still resolve to the same place
 * inside the workspace root; only then are the previous bytes restored (or a created file
 * removed), all entries of the snapshot together. A completed rollback drops the session's
 * provenance for those paths. The caller holds the session's mutation permit.
 */
public final class Rollback {

    /** The guard failed: nothing was touched. */
    public static final class Conflict extends Exception {
        private static final long serialVersionUID = 1L;

        Conflict(String message) {
            super(message, null, false, false);
        }
    }

    private record Step(Path file, JsonNode entry) {
    }

    private Rollback() {
    }

    /** @return the paths (as displayed) that were restored; empty when the snapshot was rolled back before */
    public static List<String> run(ReviewStore store, Provenance provenance, String sessionId, String snapshotId,
            Path workspace, Path scratch) throws Conflict, IOException {
        ObjectNode meta = store.meta(sessionId, snapshotId);
        if (meta == null) {
            throw new IllegalArgumentException("no snapshot " + snapshotId + " in session " + sessionId);
        }
        if ("rolledBack".equals(meta.path("state").asText())) {
            return List.of();
        }
        PathResolver resolver = new PathResolver(workspace, scratch);
        List<Step> steps = new ArrayList<>();
        for (JsonNode e : meta.path("entries")) {
            String display = e.path("display").asText();
            if (!e.path("reversible").asBoolean()) {
                throw new Conflict(display + " cannot be rolled back: its previous content was too large to keep");
            }
            Path file = Path.of(e.path("path").asText());
            try {
                Resolution r = resolver.resolve(file.toString(), PathKind.WRITABLE_FILE);
                if (r.path().root() != ResolvedPath.Root.WORKSPACE || !r.path().absolute().equals(file)) {
                    throw new Conflict(display + " no longer resolves to the same file inside the workspace");
                }
            } catch (PathException ex) {
                throw new Conflict(display + ": " + ex.getMessage());
            }
            JsonNode post = e.get("postDigest");
            boolean exists = Files.exists(file, LinkOption.NOFOLLOW_LINKS);
            if (post == null || post.isNull()) {
                if (exists) {
                    throw new Conflict(display + " was created again after the change; rollback would overwrite it");
                }
            } else {
                if (!exists || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                        || !Arrays.equals(Digests.sha256(file), HexFormat.of().parseHex(post.asText()))) {
                    throw new Conflict(display + " changed after the change under review; nothing was rolled back");
                }
            }
            steps.add(new Step(file, e));
        }
        // the guard held for every entry: apply them all
        List<String> done = new ArrayList<>();
        for (Step s : steps) {
            JsonNode e = s.entry();
            if (e.path("existed").asBoolean()) {
                Files.createDirectories(s.file().getParent());
                String mode = e.hasNonNull("mode") ? e.get("mode").asText() : null;
                AtomicWrite.write(s.file(), store.before(sessionId, snapshotId, e.path("before").asText()), mode);
            } else {
                Files.deleteIfExists(s.file());
            }
            provenance.forget(sessionId, s.file());
            done.add(e.path("display").asText());
        }
        meta.put("state", "rolledBack");
        store.writeMeta(sessionId, snapshotId, meta);
        return done;
    }
}
