package pi.host.tools.internal.file;

import pi.host.spi.AtomicWrite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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
import pi.host.spi.Builtin;
import pi.host.spi.Provenance;
import pi.host.spi.ReviewSnapshots;
import pi.host.spi.ToolKind;

/**
 * {@code Write}: creates or replaces a file atomically ({@link AtomicWrite}), keeping an existing
 * file's mode bits; parents are created only below the resolved location. All written lines become
 * displayed, so an Edit can follow with the returned tag. A workspace write gets a review record.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.EDIT, aliases = "path=file_path")
@Tool(name = "Write", risk = Risk.HIGH, pathArg = "path", pathKind = PathKind.WRITABLE_FILE, mutates = true,
        timeoutMs = 60_000)
public final class WriteTool implements ToolProvider {

    private final Provenance provenance;
    private final ReviewSnapshots review;

    @Activate
    public WriteTool(@Reference Provenance provenance, @Reference ReviewSnapshots review) {
        this.provenance = provenance;
        this.review = review;
    }

    @Override
    public String description() {
        return "Create or overwrite a file in the workspace (or the session scratch dir) with the given content."
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

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath path = call.path().orElseThrow();
        byte[] bytes = ((String) call.arguments().get("content")).getBytes(StandardCharsets.UTF_8);
        Path target = path.absolute();
        boolean existed = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
        if (existed && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, path.display() + " is not a regular file");
        }
        String mode = existed ? AtomicWrite.mode(target) : null;
        byte[] before = existed && Files.size(target) <= ReviewSnapshots.MAX_SNAPSHOT_BYTES
                && path.root() == ResolvedPath.Root.WORKSPACE ? Files.readAllBytes(target) : null;
        AtomicWrite.parents(target);
        // the snapshot is captured before the write (spec §4c); if the write then fails the call
        // fails, its records never reach the result, and the snapshot can never match a post digest
        review.record(call, List.of(new ReviewSnapshots.Change(path, "write", existed, before, bytes, mode)));
        AtomicWrite.write(target, bytes, mode);
        byte[] digest = Tags.digest(bytes);
        int lines = TextFile.parse(bytes).size();
        BitSet all = new BitSet();
        all.set(1, lines + 1);
        provenance.displayed(call.sessionId(), target, digest, all);
        return ToolResult.builder()
                .text(Tags.header(path.display(), digest) + "\n" + (existed ? "Replaced" : "Created") + " "
                        + path.display() + " (" + bytes.length + " bytes, " + lines + " lines).")
                .detail("created", !existed).detail("bytes", bytes.length).detail("lines", lines)
                .detail("tag", Tags.tag(digest)).build();
    }
}
