package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.osgi.service.component.annotations.Component;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/**
 * {@code Write}: creates or replaces a file atomically (temporary file in the same folder, fsync,
 * rename), keeping an existing file's mode bits. Renaming replaces a hard-linked target instead of
 * writing through the link.
 */
@Component(service = ToolProvider.class)
@Tool(name = "Write", risk = Risk.HIGH, pathArg = "path", pathKind = PathKind.WRITABLE_FILE, mutates = true,
        timeoutMs = 60_000)
public final class WriteTool implements ToolProvider {

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
        Set<PosixFilePermission> mode = existed ? Files.getPosixFilePermissions(target) : null;
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".pi-tmp");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            if (mode != null) {
                Files.setPosixFilePermissions(temp, mode);
            } else {
                Files.setPosixFilePermissions(temp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        byte[] digest = Tags.sha256().digest(bytes);
        long lines = bytes.length == 0 ? 0 : new String(bytes, StandardCharsets.UTF_8).lines().count();
        return ToolResult.builder()
                .text(Tags.header(path.display(), digest) + "\n" + (existed ? "Replaced" : "Created") + " "
                        + path.display() + " (" + bytes.length + " bytes, " + lines + " lines).")
                .detail("created", !existed).detail("bytes", bytes.length).build();
    }
}
