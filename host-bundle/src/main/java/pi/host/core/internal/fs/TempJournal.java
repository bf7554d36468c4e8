package pi.host.core.internal.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The temporary names an atomic write has given a file while it links and renames it, one journal
 * per host process under {@code <data_dir>/atomic-writes/}: {@code + name dir} before the name can
 * exist, {@code - name} once it is gone. A host killed in between leaves the line without its
 * match; the next host to start removes that name (a regular file of that random name only, opened
 * from a pinned directory) and then the journal. A live host's journal is locked ({@code flock},
 * which a second descriptor in the same process cannot take either), so a second host on the same
 * data dir never sweeps it. Nothing is fsynced: a killed process's writes stay in the page cache.
 */
final class TempJournal implements Closeable {

    static final String SUFFIX = ".journal";
    private static final String STARTING = ".new";
    /** A journal with nothing pending is emptied once it is this large. */
    private static final long TRUNCATE_AT = 1 << 20;
    private static final System.Logger LOG = System.getLogger(TempJournal.class.getName());

    /** Removes one left-over temporary name; false when it was not there to remove. */
    interface Remover {
        boolean remove(Path dir, String name) throws IOException;
    }

    private final Path file;
    private final int fd;
    private int pending;
    private long size;
    private boolean closed;

    private TempJournal(Path file, int fd) {
        this.file = file;
        this.fd = fd;
    }

    /** Sweeps what dead hosts' journals in {@code folder} left, then starts this host's journal there. */
    static TempJournal open(Path folder, Remover remover) throws IOException {
        Files.createDirectories(folder);
        sweep(folder, remover);
        String id = ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        Path starting = folder.resolve(id + STARTING);
        int fd = LibC.openat(LibC.AT_FDCWD, LibC.path(starting.toString()),
                LibC.O_CREAT | LibC.O_EXCL | LibC.O_WRONLY | LibC.O_APPEND | LibC.O_CLOEXEC, 0600);
        if (fd < 0) {
            throw Errno.exception(LibC.errno(), "open", starting.toString());
        }
        // locked before a sweeper can see it under its final name
        if (LibC.flock(fd, LibC.LOCK_EX | LibC.LOCK_NB) != 0) {
            IOException e = Errno.exception(LibC.errno(), "flock", starting.toString());
            LibC.close(fd);
            throw e;
        }
        Path file = folder.resolve(id + SUFFIX);
        Files.move(starting, file, StandardCopyOption.ATOMIC_MOVE);
        return new TempJournal(file, fd);
    }

    /** Notes {@code name} in {@code dir} before it is created. */
    synchronized void begin(Path dir, String name) throws IOException {
        append("+ " + name + " " + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(dir.toString().getBytes(StandardCharsets.UTF_8)) + "\n");
        pending++;
    }

    /** Notes that {@code name} is gone; never throws (it runs in finally blocks). */
    synchronized void end(String name) {
        try {
            append("- " + name + "\n");
            if (--pending == 0 && size > TRUNCATE_AT && LibC.ftruncate(fd, 0) == 0) {
                size = 0;
            }
        } catch (IOException e) {
            pending--;
            LOG.log(System.Logger.Level.WARNING, "cannot note a finished atomic write in " + file + ": " + e);
        }
    }

    private void append(String line) throws IOException {
        if (closed) {
            throw new IOException("the atomic-write journal is closed (the host is stopping)");
        }
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        long n = LibC.write(fd, b, b.length);
        if (n != b.length) {
            throw Errno.exception(n < 0 ? LibC.errno() : LibC.ENOSPC, "write", file.toString());
        }
        size += n;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (pending == 0) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot remove " + file + ": " + e);
        }
        LibC.close(fd);
    }

    private static void sweep(Path folder, Remover remover) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path journal : entries) {
                String n = journal.getFileName().toString();
                if (n.endsWith(SUFFIX) || n.endsWith(STARTING)) {
                    sweepOne(journal, remover);
                }
            }
        }
    }

    private static void sweepOne(Path journal, Remover remover) throws IOException {
        int fd = LibC.openat(LibC.AT_FDCWD, LibC.path(journal.toString()), LibC.O_RDONLY | LibC.O_CLOEXEC, 0);
        if (fd < 0) {
            return; // gone meanwhile
        }
        try {
            if (LibC.flock(fd, LibC.LOCK_EX | LibC.LOCK_NB) != 0) {
                return; // its host is alive
            }
            Map<String, Path> left = new LinkedHashMap<>();
            for (String line : Files.readString(journal, StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split(" ");
                if (f.length == 3 && f[0].equals("+") && f[1].startsWith(WholeWrite.TEMP_PREFIX)) {
                    left.put(f[1], Path.of(new String(Base64.getUrlDecoder().decode(f[2]), StandardCharsets.UTF_8)));
                } else if (f.length == 2 && f[0].equals("-")) {
                    left.remove(f[1]);
                }
            }
            for (Map.Entry<String, Path> e : left.entrySet()) {
                try {
                    if (remover.remove(e.getValue(), e.getKey())) {
                        LOG.log(System.Logger.Level.INFO, "removed the temporary file "
                                + e.getValue().resolve(e.getKey()) + " a killed host left");
                    }
                } catch (IOException | RuntimeException ex) {
                    LOG.log(System.Logger.Level.WARNING, "cannot remove the left-over temporary file "
                            + e.getValue().resolve(e.getKey()) + ": " + ex);
                }
            }
            Files.deleteIfExists(journal);
        } finally {
            LibC.close(fd);
        }
    }
}
