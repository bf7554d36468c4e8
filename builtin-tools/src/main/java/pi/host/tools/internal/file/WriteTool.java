package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.AtomicWrite;
import pi.host.spi.Builtin;
import pi.host.spi.FileInfo;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;
import pi.host.spi.Provenance;
import pi.host.spi.ReviewSnapshots;
import pi.host.spi.ToolKind;
import pi.host.tools.internal.visualization.StaticCheck;

/**
 * {@code Write}: creates or replaces a file atomically ({@link AtomicWrite}), keeping an existing
 * file's mode bits; parents are created only below the resolved location. Everything happens below
 * the path's root pinned by its descriptor, no link followed: the previous content is read from the
 * file the host checked and the new one lands there, whatever a swapped folder points to. All
 * written lines become displayed, so an Edit can follow with the returned tag. A workspace write
 * gets a review record.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.EDIT, aliases = "path=file_path")
@Tool(name = "Write", risk = Risk.HIGH, pathArg = "path", pathKind = PathKind.WRITABLE_FILE, mutates = true,
        timeoutMs = 60_000)
public final class WriteTool implements ToolProvider {

    private final Provenance provenance;
    private final ReviewSnapshots review;
    private final PinnedFiles files;

    @Activate
    public WriteTool(@Reference Provenance provenance, @Reference ReviewSnapshots review,
            @Reference PinnedFiles files) {
        this.provenance = provenance;
        this.review = review;
        this.files = files;
    }

    @Override
    public String description() {
        return "Create or overwrite a file in the workspace (or the session scratch dir, or as <name>.html directly in"
                + " the session's visualization dir, whose result then has a static check of its scripts and ids)"
                + " with the given content."
                + " Parent folders are created inside the root. Returns the new [path#TAG].";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"path\":{\"type\":\"string\",\"description\":\"File path, relative to the workspace root\"},"
                + "\"file_path\":{\"type\":\"string\",\"description\":\"Alias of path\"},"
                + "\"content\":{\"type\":\"string\",\"description\":\"The complete new content\"}"
                + "},\"required\":[\"content\"],\"additionalProperties\":false}";
    }

    /** One line, then each problem: what the model reads to fix the fragment with one Edit. */
    private static String summary(java.util.Map<String, Object> check) {
        StringBuilder b = new StringBuilder("Static check: ").append(check.get("scripts")).append(" inline script(s), ");
        List<?> problems = (List<?>) check.get("problems");
        b.append(problems.isEmpty() ? "no problems." : check.get("problemCount") + " problem(s):");
        problems.forEach(p -> b.append("\n- ").append(p));
        ((List<?>) check.get("unchecked")).forEach(u -> b.append("\n- ").append(u));
        return b.toString();
    }

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath path = call.path().orElseThrow();
        byte[] bytes = ((String) call.arguments().get("content")).getBytes(StandardCharsets.UTF_8);
        try (PinnedDir root = files.root(call, path)) {
            String target = root.relative(path.absolute());
            FileInfo info = root.stat(target);
            boolean existed = info != null;
            if (existed && !info.regularFile()) {
                return ToolResult.error(ErrorCode.INVALID_ARGUMENT, path.display() + " is not a regular file");
            }
            String mode = existed ? info.mode() : null;
            byte[] before = null;
            if (existed && info.size() <= ReviewSnapshots.MAX_SNAPSHOT_BYTES
                    && path.root() == ResolvedPath.Root.WORKSPACE) {
                try (PinnedFile old = root.open(target)) {
                    mode = old.info().mode(); // of the inode whose bytes are kept
                    before = old.readAll(ReviewSnapshots.MAX_SNAPSHOT_BYTES);
                }
            }
            // the snapshot is captured before the write (spec §4c); if the write then fails the call
            // fails, its records never reach the result, and the snapshot can never match a post digest
            review.record(call, List.of(new ReviewSnapshots.Change(path, "write", existed, before, bytes, mode)));
            AtomicWrite.write(root, target, bytes, mode);
            byte[] digest = Tags.digest(bytes);
            int lines = TextFile.parse(bytes).size();
            BitSet all = new BitSet();
            all.set(1, lines + 1);
            provenance.displayed(call.sessionId(), path.absolute(), digest, all);
            ToolResult.Builder result = ToolResult.builder()
                    .text(Tags.header(path.display(), digest) + "\n" + (existed ? "Replaced" : "Created") + " "
                            + path.display() + " (" + bytes.length + " bytes, " + lines + " lines).")
                    .detail("created", !existed).detail("bytes", bytes.length).detail("lines", lines)
                    .detail("tag", Tags.tag(digest));
            if (path.root() == ResolvedPath.Root.VISUALIZATION && target.endsWith(".html")) {
                // spec §4b.1: the fragment's scripts compiled without running, its literal ids looked up
                java.util.Map<String, Object> check = StaticCheck.check(new String(bytes, StandardCharsets.UTF_8));
                result.detail("staticCheck", check).text(summary(check));
            }
            return result.build();
        } catch (PathChangedException e) {
            return FileErrors.changed(path, e);
        }
    }
}
