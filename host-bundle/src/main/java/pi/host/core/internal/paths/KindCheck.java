package pi.host.core.internal.paths;

import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;

/**
 * Checks that a resolved location is what the tool's path argument must name (spec §4), so a tool
 * never starts on the wrong kind of thing and the model gets a precise INVALID_ARGUMENT instead of
 * a generic execution failure.
 */
final class KindCheck {

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private KindCheck() {
    }

    /**
     * @param canonical the location, free of links
     * @param attributes what is there (read by the canonical walk), null when nothing is
     * @param trailingSlash the argument ended in a separator
     * @param display how to name the path in a message
     */
    static void verify(Path canonical, BasicFileAttributes attributes, PathKind kind, boolean trailingSlash,
            String display) throws PathException {
        boolean exists = attributes != null;
        boolean directory = exists && attributes.isDirectory();
        boolean regular = exists && attributes.isRegularFile();
        switch (kind) {
            case EXISTING_FILE:
                if (!exists) {
                    throw invalid("no such file: " + display);
                }
                if (directory) {
                    throw new PathException(ErrorCode.INVALID_ARGUMENT,
                            display + " is a directory, not a file; list it with Glob",
                            Map.of("tool", "Glob", "path", display));
                }
                if (!regular) {
                    throw invalid(display + " is not a regular file");
                }
                if (trailingSlash) {
                    throw invalid(display + " is a file, but the path ends with '/'");
                }
                return;
            case DIRECTORY:
                if (!exists) {
                    throw invalid("no such directory: " + display);
                }
                if (!directory) {
                    throw invalid(display + " is not a directory");
                }
                return;
            case FILE_OR_DIRECTORY:
                if (!exists) {
                    throw invalid("no such file or directory: " + display);
                }
                return;
            case WRITABLE_FILE:
                writable(canonical, exists, directory, regular, trailingSlash, display);
                return;
            default:
                throw new IllegalArgumentException("no path to check for kind " + kind);
        }
    }

    private static void writable(Path canonical, boolean exists, boolean directory, boolean regular,
            boolean trailingSlash, String display) throws PathException {
        if (directory) {
            throw invalid(display + " is a directory, not a file");
        }
        if (trailingSlash) {
            throw invalid("a file path may not end with '/': " + display);
        }
        if (exists) {
            if (!regular) {
                // A FIFO or device would block or do something other than store bytes.
                throw invalid(display + " is not a regular file");
            }
            return;
        }
        // Parents are created later; say now if one of them is a file, rather than fail half way.
        for (Path p = canonical.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p, NOFOLLOW)) {
                if (!Files.isDirectory(p, NOFOLLOW)) {
                    throw invalid("cannot create " + display + ": a parent is not a directory");
                }
                return;
            }
        }
    }

    private static PathException invalid(String message) {
        return new PathException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
