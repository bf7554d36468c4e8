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
        if (longerThan(raw, 0, raw.length(), MAX_BYTES)) {
            throw invalid("path is longer than " + MAX_BYTES + " bytes");
        }
        // Split on the platform's separator only, so "a\b" stays one name on POSIX. A scan, not
        // String.split: its character-class pattern was compiled on every call of every path tool.
        boolean backslash = !fs.getSeparator().equals("/");
        int start = 0;
        for (int i = 0; i <= raw.length(); i++) {
            if (i == raw.length() || raw.charAt(i) == '/' || backslash && raw.charAt(i) == '\\') {
                if (longerThan(raw, start, i, MAX_COMPONENT_BYTES)) {
                    throw invalid("a path component is longer than " + MAX_COMPONENT_BYTES + " bytes");
                }
                start = i + 1;
            }
        }
        try {
            return fs.getPath(raw);
        } catch (InvalidPathException e) {
            throw invalid("not a valid path: " + e.getReason());
        }
    }

    /**
     * True when {@code text[from, to)} takes more than {@code max} bytes in UTF-8 (a lone surrogate
     * counting as the one byte '?' it is encoded as). No char takes more than 3 bytes, so short
     * text is not encoded at all.
     */
    private static boolean longerThan(String text, int from, int to, int max) {
        return (to - from) * 3 > max && text.substring(from, to).getBytes(StandardCharsets.UTF_8).length > max;
    }

    /** True when the argument ends in a separator, i.e. names a directory (POSIX trailing-slash rule). */
    static boolean namesDirectory(FileSystem fs, String raw) {
        return raw.endsWith("/") || (!fs.getSeparator().equals("/") && raw.endsWith("\\"));
    }

    private static PathException invalid(String message) {
        return new PathException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
