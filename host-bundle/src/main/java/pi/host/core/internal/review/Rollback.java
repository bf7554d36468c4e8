package pi.host.core.internal.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
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
import pi.host.spi.AtomicWrite;
import pi.host.spi.FileInfo;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.Provenance;

/**
 * Rolls one snapshot back (spec §4c): every entry must still be exactly what the call left (the
 * full post-change digest, or absent for a removed file) and must still resolve to the same place
 * inside the workspace root; only then are the previous bytes restored (or a created file
 * removed), all entries of the snapshot together. The guard and the restore both work below the
 * workspace root pinned by its descriptor, so a folder swapped for a link after the path check
 * can neither fake the guard nor redirect the restore. A completed rollback drops the session's
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

    private record Step(Path file, String relative, JsonNode entry) {
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
        try (PinnedDir root = store.files().pin(workspace.toRealPath())) {
            List<Step> steps = new ArrayList<>();
            for (JsonNode e : meta.path("entries")) {
                steps.add(guard(resolver, root, e));
            }
            // the guard held for every entry: apply them all
            List<String> done = new ArrayList<>();
            for (Step s : steps) {
                JsonNode e = s.entry();
                if (e.path("existed").asBoolean()) {
                    String mode = e.hasNonNull("mode") ? e.get("mode").asText() : null;
                    AtomicWrite.write(root, s.relative(), store.before(sessionId, snapshotId,
                            e.path("before").asText()), mode);
                } else {
                    try {
                        root.delete(s.relative());
                    } catch (NoSuchFileException gone) {
                        // already absent: what the rollback wants
                    }
                }
                provenance.forget(sessionId, s.file());
                done.add(e.path("display").asText());
            }
            meta.put("state", "rolledBack");
            store.writeMeta(sessionId, snapshotId, meta);
            return done;
        }
    }

    /** One entry's guard: same place in the workspace, and exactly what the call left there. */
    private static Step guard(PathResolver resolver, PinnedDir root, JsonNode e) throws Conflict, IOException {
        String display = e.path("display").asText();
        if (!e.path("reversible").asBoolean()) {
            throw new Conflict(display + " cannot be rolled back: its previous content was too large to keep");
        }
        Path file = Path.of(e.path("path").asText());
        try {
            Resolution r = resolver.resolve(file.toString(), PathKind.WRITABLE_FILE);
            if (r.path().root() != ResolvedPath.Root.WORKSPACE || !r.path().absolute().equals(file)
                    || !file.startsWith(root.path())) {
                throw new Conflict(display + " no longer resolves to the same file inside the workspace");
            }
        } catch (PathException ex) {
            throw new Conflict(display + ": " + ex.getMessage());
        }
        String relative = root.relative(file);
        JsonNode post = e.get("postDigest");
        try {
            FileInfo info = root.stat(relative);
            if (post == null || post.isNull()) {
                if (info != null) {
                    throw new Conflict(display + " was created again after the change; rollback would overwrite it");
                }
            } else if (info == null || !info.regularFile() || !Arrays.equals(digest(root, relative),
                    HexFormat.of().parseHex(post.asText()))) {
                throw new Conflict(display + " changed after the change under review; nothing was rolled back");
            }
        } catch (PathChangedException ex) {
            throw new Conflict(display + ": " + ex.getMessage());
        }
        return new Step(file, relative, e);
    }

    private static byte[] digest(PinnedDir root, String relative) throws IOException {
        try (PinnedFile f = root.open(relative)) {
            return Digests.sha256(f);
        }
    }
}
