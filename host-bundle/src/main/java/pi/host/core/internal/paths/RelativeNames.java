package pi.host.core.internal.paths;

import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * The names of a path below a folder it is inside, joined with '/': where no name starts with a dot (so
 * none is "." or "..") on a '/'-separated file system, the text after the folder's own, as a path's text
 * has no doubled or trailing separator; elsewhere {@link Path#relativize}'s names, which normalizes.
 * Every call's path check and file open asks this once or twice: relativize was one of the largest C2
 * compilations of a fresh host's first calls (docs/performance-log.md, "branch `c2big12`").
 */
public final class RelativeNames {

    private RelativeNames() {
    }

    /** {@code inside}'s names below {@code folder}; {@code inside} must start with it and not be it. */
    public static String of(Path folder, Path inside) {
        String text = inside.toString();
        if (text.indexOf("/.") < 0 && "/".equals(folder.getFileSystem().getSeparator())) {
            String own = folder.toString();
            return text.substring(own.endsWith("/") ? own.length() : own.length() + 1);
        }
        StringJoiner names = new StringJoiner("/");
        folder.relativize(inside).forEach(n -> names.add(n.toString()));
        return names.toString();
    }
}
