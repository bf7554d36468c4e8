package pi.host.core.internal.paths;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import pi.host.api.ErrorCode;

/**
 * Turns the model's string into a {@link Path} without interpreting it: no {@code ~} or
 * {@code $VAR} expansion (they are literal names), and on POSIX a backslash is part of a name,
 * never a separator. Bad input fails cleanly here, before anything touches the file system.
 */
final class RawPath {

    /** PATH_MAX on Linux; longer input is not a path any tool could open. */
    static final int MAX_BYTES = 4096;
    /** NAME_MAX on common file systems. */
    static final int MAX_COMPONENT_BYTES = 255;

    private RawPath() {
    }

    static Path parse(FileSystem fs, String raw) throws PathException {
        if (raw == null || raw.isBlank()) {
            throw invalid("path must be a non-empty string");
        }
        if (raw.indexOf('\0') >= 0) {
            throw invalid("path contains a NUL character");
        }
        if (raw.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw invalid("path is longer than " + MAX_BYTES + " bytes");
        }
        // Split on the platform's separator only, so "a\b" stays one name on POSIX.
        String separators = fs.getSeparator().equals("/") ? "/" : "/\\\\";
        for (String component : raw.split("[" + separators + "]")) {
            if (component.getBytes(StandardCharsets.UTF_8).length > MAX_COMPONENT_BYTES) {
                throw invalid("a path component is longer than " + MAX_COMPONENT_BYTES + " bytes");
            }
        }
        try {
            return fs.getPath(raw);
        } catch (InvalidPathException e) {
            throw invalid("not a valid path: " + e.getReason());
        }
    }

    /** True when the argument ends in a separator, i.e. names a directory (POSIX trailing-slash rule). */
    static boolean namesDirectory(FileSystem fs, String raw) {
        return raw.endsWith("/") || (!fs.getSeparator().equals("/") && raw.endsWith("\\"));
    }

    private static PathException invalid(String message) {
        return new PathException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
