package pi.host.core.internal.paths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import pi.host.api.ErrorCode;

/**
 * Finds where an absolute path really points, following every symbolic link on the way, including
 * a final one and dangling ones, without requiring the path to exist.
 *
 * <p>{@link Path#toRealPath} is not enough: it fails on a missing path, and resolving only the
 * deepest existing ancestor would treat a dangling link ({@code ws/out -> /elsewhere/new}) as an
 * ordinary missing name inside the workspace, so a Write through it would land outside. Hence a
 * walk, one component at a time, like the kernel does.
 */
final class Canonicalizer {

    /** Linux's MAXSYMLINKS: more hops than this is a loop or close enough to one. */
    static final int MAX_LINK_HOPS = 40;

    private Canonicalizer() {
    }

    /**
     * A canonical location and what the walk saw there: the attributes of its last component
     * (never a link), or null when nothing exists there. Kept so that the kind and existence
     * checks need no second look at the file system.
     */
    record Walk(Path path, BasicFileAttributes attributes) {
    }

    /**
     * The location {@code absolute} names with all links followed. Every component of the result
     * was, when checked, a real directory, a real file or missing; none is a link.
     *
     * @throws PathException INVALID_ARGUMENT on a link loop or an unreadable link
     */
    static Path canonical(Path absolute) throws PathException {
        return walk(absolute).path();
    }

    /** {@link #canonical}, with the attributes of where it landed (one lstat per component in all). */
    static Walk walk(Path absolute) throws PathException {
        if (!absolute.isAbsolute()) {
            throw new IllegalArgumentException("not absolute: " + absolute);
        }
        Path current = absolute.getRoot();
        // the attributes of `current` when the walk has read them (null + known: nothing there)
        BasicFileAttributes seen = null;
        boolean known = false;
        Deque<String> pending = new ArrayDeque<>();
        absolute.forEach(name -> pending.addLast(name.toString()));
        int hops = 0;
        while (!pending.isEmpty()) {
            String name = pending.removeFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                // current holds no links, so its lexical parent is its real parent.
                Path parent = current.getParent();
                current = parent == null ? current : parent;
                known = false;
                continue;
            }
            Path next = current.resolve(name);
            BasicFileAttributes attributes = attributes(next);
            if (attributes == null || !attributes.isSymbolicLink()) {
                // Checked again for every later name, so a name that reappears after '..' is not trusted.
                current = next;
                seen = attributes;
                known = true;
                continue;
            }
            if (++hops > MAX_LINK_HOPS) {
                throw new PathException(ErrorCode.INVALID_ARGUMENT,
                        "too many levels of symbolic links (a link loop?)");
            }
            Path target = readLink(next);
            Deque<String> expansion = new ArrayDeque<>();
            target.forEach(part -> expansion.addLast(part.toString()));
            while (!expansion.isEmpty()) {
                pending.addFirst(expansion.removeLast());
            }
            if (target.isAbsolute()) {
                current = target.getRoot();
                known = false;
            }
        }
        return new Walk(current, known ? seen : attributes(current));
    }

    /** The attributes of {@code path} itself (a link is not followed), or null when nothing can be read there. */
    static BasicFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null; // as Files.exists: missing or unreadable
        }
    }

    private static Path readLink(Path link) throws PathException {
        try {
            return Files.readSymbolicLink(link);
        } catch (IOException e) {
            throw new PathException(ErrorCode.INVALID_ARGUMENT, "cannot read a symbolic link on the path: " + e);
        }
    }
}
