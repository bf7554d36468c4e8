package pi.host.core.internal.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Which file a path named when it was opened (device and inode on Linux and macOS: the file
 * system's file key), to tell later whether the path still names that file. Where the file system
 * has no file key the identity is unknown and every comparison passes.
 */
final class FileIdentity {

    private final Object key;

    private FileIdentity(Object key) {
        this.key = key;
    }

    static FileIdentity of(Path file) throws IOException {
        return new FileIdentity(attributes(file).fileKey());
    }

    /** Null while {@code file} names the same file; else what happened to it ("was deleted", "was replaced"). */
    String change(Path file) {
        if (key == null) {
            return null;
        }
        Object now;
        try {
            now = attributes(file).fileKey();
        } catch (NoSuchFileException e) {
            return "was deleted";
        } catch (IOException e) {
            return "cannot be looked at (" + e.getMessage() + ")";
        }
        return key.equals(now) ? null : "was replaced by another file";
    }

    private static BasicFileAttributes attributes(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }
}
