package pi.host.core.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.StringJoiner;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFiles;

/**
 * The race-free file edge on Linux: {@code /} is held open, a directory is pinned by resolving its
 * canonical path from there with the {@link Resolver} (so no link may be on it), and everything
 * below a pinned directory is resolved from its descriptor the same way. Atomic writes go through
 * {@link WholeWrite} and its {@link TempJournal}, which this instance owns.
 */
final class LinuxFiles implements PinnedFiles, Closeable {

    final Resolver resolver;
    final WholeWrite writer;
    private final TempJournal journal;
    private final int slash;

    private LinuxFiles(Resolver resolver, int slash, Path journalFolder) throws IOException {
        this.resolver = resolver;
        this.slash = slash;
        this.journal = TempJournal.open(journalFolder, this::removeLeftOver);
        this.writer = new WholeWrite(journal);
    }

    /**
     * The edge with {@code openat2} where the kernel has it, else the {@code openat} walk.
     *
     * @throws UnsupportedOperationException off Linux x86_64/aarch64; LinkageError without JNA or libc
     */
    static LinuxFiles open(Path journalFolder) throws IOException {
        return open(journalFolder, Openat2.available() ? new Openat2() : new OpenatWalk());
    }

    /** The edge with a given resolver (tests run both). */
    static LinuxFiles open(Path journalFolder, Resolver resolver) throws IOException {
        int slash = LibC.openat(LibC.AT_FDCWD, LibC.path("/"), LibC.O_PATH | LibC.O_DIRECTORY | LibC.O_CLOEXEC, 0);
        if (slash < 0) {
            throw Errno.exception(LibC.errno(), "open", "/");
        }
        try {
            return new LinuxFiles(resolver, slash, journalFolder);
        } catch (IOException | RuntimeException e) {
            LibC.close(slash);
            throw e;
        }
    }

    @Override
    public String mechanism() {
        return resolver.name();
    }

    @Override
    public PinnedDir pin(Path canonicalDirectory) throws IOException {
        return at(canonicalDirectory).dir("", false);
    }

    @Override
    public PinnedDir at(Path canonicalDirectory) {
        if (!canonicalDirectory.isAbsolute()) {
            throw new IllegalArgumentException("not absolute: " + canonicalDirectory);
        }
        StringJoiner names = new StringJoiner("/");
        canonicalDirectory.forEach(n -> names.add(n.toString()));
        String relative = names.toString();
        FdDir.check(relative);
        return FdDir.below(this, slash, canonicalDirectory, relative);
    }

    /** A temporary name a killed host left: removed only while it is a regular file. */
    private boolean removeLeftOver(Path dir, String name) throws IOException {
        try (PinnedDir d = pin(dir)) {
            FileInfo info = d.stat(name);
            if (info == null || !info.regularFile()) {
                return false;
            }
            d.delete(name);
            return true;
        }
    }

    /**
     * Closes the journal (later writes fail). The descriptor of {@code /} stays open for the
     * process's life: a call still running while the host stops may resolve from it, and a closed
     * number reused by another open would make it resolve from a directory it never meant.
     */
    @Override
    public void close() {
        journal.close();
    }
}
