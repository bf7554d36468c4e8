package pi.host.core.internal.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.Set;

/**
 * Folder operations that never follow a link, relative to a directory held open by its descriptor
 * (the JDK's {@link SecureDirectoryStream}: {@code openat}, {@code unlinkat} and {@code fstatat} with
 * {@code O_NOFOLLOW}/{@code AT_SYMLINK_NOFOLLOW} on Linux). A folder swapped for a link while the host
 * walks cannot lead a removal or a copy anywhere else: the walk only ever descends through
 * directories it opened itself, and a link it meets is removed (never its target) or skipped.
 */
public final class NoFollowTree {

    private NoFollowTree() {
    }

    /** What is at {@code names} below {@code base}: a real directory, a link, something else, or nothing. */
    public enum Kind {
        DIRECTORY, LINK, OTHER, MISSING
    }

    /**
     * What each of {@code names} is, walked from {@code base} one name at a time without following a
     * link: the first name that is not a real directory ends the walk with what it is.
     *
     * @return {@link Kind#DIRECTORY} when every name is a real directory, else the kind of the first that is not
     */
    public static Kind chain(Path base, List<String> names) throws IOException {
        try (SecureDirectoryStream<Path> dir = open(base)) {
            return chain(dir, names, 0);
        }
    }

    private static Kind chain(SecureDirectoryStream<Path> dir, List<String> names, int i) throws IOException {
        if (i == names.size()) {
            return Kind.DIRECTORY;
        }
        Path name = Path.of(names.get(i));
        Kind kind = kind(dir, name);
        if (kind != Kind.DIRECTORY) {
            return kind;
        }
        try (SecureDirectoryStream<Path> next = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            return chain(next, names, i + 1);
        } catch (NoSuchFileException e) {
            return Kind.MISSING;
        }
    }

    /**
     * Removes what is at {@code names} below {@code base}: a link is unlinked (its target untouched), a
     * directory removed with everything in it (links inside unlinked, never followed). A name on the way
     * that is not a real directory stops it: nothing through it is touched.
     *
     * @return what was found at the end (MISSING: nothing to remove; LINK: only the link was removed)
     */
    public static Kind remove(Path base, List<String> names) throws IOException {
        try (SecureDirectoryStream<Path> dir = open(base)) {
            SecureDirectoryStream<Path> at = dir;
            java.util.ArrayDeque<SecureDirectoryStream<Path>> opened = new java.util.ArrayDeque<>();
            try {
                for (int i = 0; i < names.size() - 1; i++) {
                    Path name = Path.of(names.get(i));
                    Kind kind = kind(at, name);
                    if (kind != Kind.DIRECTORY) {
                        return kind == Kind.MISSING ? Kind.MISSING : Kind.OTHER; // a link on the way: not ours to follow
                    }
                    at = at.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                    opened.push(at);
                }
                Path last = Path.of(names.get(names.size() - 1));
                Kind kind = kind(at, last);
                switch (kind) {
                    case DIRECTORY:
                        removeContents(at, last);
                        at.deleteDirectory(last);
                        break;
                    case LINK:
                    case OTHER:
                        at.deleteFile(last);
                        break;
                    default:
                        break;
                }
                return kind;
            } finally {
                for (SecureDirectoryStream<Path> s : opened) {
                    s.close();
                }
            }
        }
    }

    private static void removeContents(SecureDirectoryStream<Path> parent, Path name) throws IOException {
        try (SecureDirectoryStream<Path> dir = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            for (Path entry : dir) {
                Path child = entry.getFileName();
                if (kind(dir, child) == Kind.DIRECTORY) {
                    removeContents(dir, child);
                    dir.deleteDirectory(child);
                } else {
                    dir.deleteFile(child);
                }
            }
        }
    }

    /**
     * Copies the regular file at the relative path {@code relative} below {@code sourceRoot} to the same
     * relative path below {@code targetRoot} (a fresh folder of the host's). Every folder of the source
     * path is opened without following links; a link anywhere on it, or a source that is not a regular
     * file, is not copied.
     *
     * @return the bytes copied, or -1 when the source was a link or not a regular file
     */
    public static long copyFile(Path sourceRoot, String relative, Path targetRoot, long maxBytes) throws IOException {
        String[] names = relative.split("/");
        try (SecureDirectoryStream<Path> root = open(sourceRoot)) {
            SecureDirectoryStream<Path> at = root;
            java.util.ArrayDeque<SecureDirectoryStream<Path>> opened = new java.util.ArrayDeque<>();
            try {
                for (int i = 0; i < names.length - 1; i++) {
                    Path name = Path.of(names[i]);
                    if (!valid(names[i]) || kind(at, name) != Kind.DIRECTORY) {
                        return -1;
                    }
                    at = at.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                    opened.push(at);
                }
                Path leaf = Path.of(names[names.length - 1]);
                if (!valid(names[names.length - 1])) {
                    return -1;
                }
                BasicFileAttributes attrs;
                try {
                    attrs = at.getFileAttributeView(leaf, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes();
                } catch (NoSuchFileException gone) {
                    return -1; // not there (or removed since it was listed): nothing to copy
                }
                if (!attrs.isRegularFile() || attrs.size() > maxBytes) {
                    return -1;
                }
                Set<java.nio.file.attribute.PosixFilePermission> mode = null;
                PosixFileAttributeView posix = at.getFileAttributeView(leaf, PosixFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS);
                if (posix != null) {
                    PosixFileAttributes p = posix.readAttributes();
                    mode = p.permissions();
                }
                Path target = targetRoot.resolve(relative);
                if (!realFolders(targetRoot, names)) {
                    return -1; // the checkout has a link where the source has a folder: not written through it
                }
                long copied = 0;
                try (SeekableByteChannel in = at.newByteChannel(leaf, Set.of(StandardOpenOption.READ,
                        LinkOption.NOFOLLOW_LINKS));
                        SeekableByteChannel out = Files.newByteChannel(target, StandardOpenOption.CREATE_NEW,
                                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                    while (in.read(buffer) >= 0 && copied <= maxBytes) {
                        buffer.flip();
                        copied += buffer.remaining();
                        while (buffer.hasRemaining()) {
                            out.write(buffer);
                        }
                        buffer.clear();
                    }
                }
                if (mode != null) {
                    Files.setPosixFilePermissions(target, mode);
                }
                return copied;
            } finally {
                for (SecureDirectoryStream<Path> s : opened) {
                    s.close();
                }
            }
        }
    }

    /**
     * Makes the folders of {@code names} (all but the last) below {@code root} as real directories;
     * false when one of them is already something else (a link the checkout made, say).
     */
    private static boolean realFolders(Path root, String[] names) throws IOException {
        Path at = root;
        for (int i = 0; i < names.length - 1; i++) {
            at = at.resolve(names[i]);
            if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(at);
            } else if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                return false;
            }
        }
        return true;
    }

    private static boolean valid(String name) {
        return !name.isEmpty() && !name.equals(".") && !name.equals("..");
    }

    private static Kind kind(SecureDirectoryStream<Path> dir, Path name) throws IOException {
        try {
            BasicFileAttributes a = dir.getFileAttributeView(name, BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            return a.isSymbolicLink() ? Kind.LINK : a.isDirectory() ? Kind.DIRECTORY : Kind.OTHER;
        } catch (NoSuchFileException e) {
            return Kind.MISSING;
        }
    }

    private static SecureDirectoryStream<Path> open(Path base) throws IOException {
        DirectoryStream<Path> s = Files.newDirectoryStream(base);
        if (s instanceof SecureDirectoryStream) {
            return (SecureDirectoryStream<Path>) s;
        }
        s.close();
        // without openat there is no way to walk without a window for links: refuse rather than race
        throw new IOException("this platform cannot open folders relative to a descriptor; nothing done in " + base);
    }
}
